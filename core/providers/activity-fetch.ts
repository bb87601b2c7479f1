/**
 * A `fetch` that reports every chunk of the response body as it arrives (R-PROV-5: every byte from the server is
 * activity). The SDK drops SSE comment lines (`: OPENROUTER PROCESSING`) before we see a part, so without this a
 * proxy that keeps the connection alive while the model thinks looks silent and gets timed out.
 */
export function activityFetch(onBytes: () => void, base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body) return response;
    const watched = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          onBytes();
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(watched, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
