// Read by Prism when it loads (imported before it): never highlight the page on its own, never listen to workers.
(globalThis as { Prism?: object }).Prism ??= { manual: true, disableWorkerMessageHandler: true };
