// Python's memory snapshot as Cache Storage keeps it: without its pages of zeros. Of the 31 MB of memory a
// started Pyodide has, about 60 % are such pages, and a return visit waits for the snapshot to be read
// before Pyodide can go on, so it reads only the rest. The response's headers say which pages it holds and
// how long the whole memory is; a response without them, or of the wrong length, is refused.

const PAGE = 65536; // WebAssembly's page
const LENGTH = "X-Snapshot-Length";
const PAGES = "X-Snapshot-Pages";

function empty(bytes) {
  // Eight bytes at a time where the page is aligned to them (a snapshot is), one at a time otherwise.
  const words = bytes.byteOffset % 8 === 0 && bytes.length % 8 === 0
    ? new BigUint64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8) : bytes;
  for (let i = 0; i < words.length; i += 1) if (words[i]) return false;
  return true;
}

// "0-12,15,17-20" for the pages [0..12, 15, 17..20].
const spans = (pages) => pages.reduce((out, page) => {
  const last = out[out.length - 1];
  if (last && last[1] === page - 1) last[1] = page; else out.push([page, page]);
  return out;
}, []).map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(",");

function pagesOf(text) {
  if (!/^(\d+(-\d+)?)(,\d+(-\d+)?)*$/.test(text || "")) throw new Error("the snapshot does not list its pages");
  return text.split(",").flatMap((span) => {
    const [a, b = a] = span.split("-").map(Number);
    return Array.from({ length: b - a + 1 }, (_, i) => a + i);
  });
}

// The snapshot `bytes` (a Uint8Array) as a Response to keep.
export function packed(bytes) {
  const kept = [];
  for (let page = 0; page * PAGE < bytes.length; page += 1) {
    if (!empty(bytes.subarray(page * PAGE, (page + 1) * PAGE))) kept.push(page);
  }
  const body = new Blob(kept.map((page) => bytes.subarray(page * PAGE, (page + 1) * PAGE)));
  return new Response(body, { headers: { "Content-Type": "application/octet-stream",
                                         [LENGTH]: String(bytes.length), [PAGES]: spans(kept) } });
}

// The whole snapshot (a Uint8Array) from a Response that packed() made.
export async function unpacked(response) {
  const length = Number(response.headers.get(LENGTH));
  const kept = response.headers.get(PAGES) === "" ? [] : pagesOf(response.headers.get(PAGES));
  const body = new Uint8Array(await response.arrayBuffer());
  const size = (page) => Math.min(PAGE, length - page * PAGE);
  if (!Number.isInteger(length) || length <= 0 || kept.some((page) => size(page) <= 0)
      || body.length !== kept.reduce((sum, page) => sum + size(page), 0)) {
    throw new Error("the kept snapshot is not whole");
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const page of kept) {
    bytes.set(body.subarray(at, at + size(page)), page * PAGE);
    at += size(page);
  }
  return bytes;
}
