/**
 * A `fetch` that reports every chunk of the response body as it arrives (every byte from the server is
 * activity). The SDK drops SSE comment lines (`: OPENROUTER PROCESSING`) before we see a part, so without this a
 * proxy that keeps the connection alive while the model thinks looks silent and gets timed out.
 */
export function activityFetch(onBytes: () => void, base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body) return response;
    // Read through a reader rather than pipeThrough(): the first pipe that ends makes Node build a JavaScript
    // context for an error message, about 2 ms at the end of a one-shot answer.
    const reader = response.body.getReader();
    const watched = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        onBytes();
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(watched, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
