// pdfjs-dist ships no types for its worker bundle; only its message handler is used (see pdf.ts).
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown
}
