// Types for the imsc package (no types of its own): only what the tests use. The tests load its
// parser and ISD modules directly: the package's entry also loads its HTML renderer, which reads
// `navigator` at load time and so does not load in Node 20.
declare module 'imsc/src/main/js/doc.js' {
  export interface ImscDocument {
    getMediaTimeEvents(): number[];
  }
  export interface ErrorHandler {
    info?(msg: string): boolean;
    warn?(msg: string): boolean;
    error?(msg: string): boolean;
    fatal?(msg: string): boolean;
  }
  export function fromXML(xml: string, errorHandler?: ErrorHandler): ImscDocument | null;
}
declare module 'imsc/src/main/js/isd.js' {
  import type { ImscDocument, ErrorHandler } from 'imsc/src/main/js/doc.js';
  export function generateISD(doc: ImscDocument, offset: number, errorHandler?: ErrorHandler): unknown;
}
