// Module worker: Python starts here, off the main thread, and survives page swaps.
import { createRuntime } from "./runtime.js";

const onMessage = createRuntime(new URL("./", import.meta.url), (message) => self.postMessage(message));
self.onmessage = (event) => onMessage(event.data);
