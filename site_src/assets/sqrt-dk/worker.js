// Module worker: Python starts here, off the main thread, and survives page swaps.
import { createRuntime } from "./runtime.js";

const snapshots = !new URL(self.location.href).searchParams.has("framed");
const onMessage = createRuntime(new URL("./", import.meta.url), (message) => self.postMessage(message), { snapshots });
self.onmessage = (event) => onMessage(event.data);
