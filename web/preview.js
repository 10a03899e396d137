// Big files show their bytes while they are read: the page previews a file of PREVIEW_MIN bytes
// or more from the File itself (web/main.js), and the document worker decodes the first
// PREVIEW_BYTES of it as soon as they are read, to color them (web/worker.js).

/** From this size a file is previewed while it is read and decoded. */
export const PREVIEW_MIN = 4 * 1024 * 1024;
/** How many of its first bytes are decoded for the preview. */
export const PREVIEW_BYTES = 64 * 1024;
