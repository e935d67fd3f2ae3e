// Types for the smpte-timecode package (no types of its own): only what the tests use as an oracle.
declare module 'smpte-timecode' {
  interface Timecode {
    frameCount: number;
    hours: number;
    minutes: number;
    seconds: number;
    frames: number;
    dropFrame: boolean;
    toString(): string;
  }
  interface TimecodeConstructor {
    new (timeCode: number | string, frameRate?: number | [number, number], dropFrame?: boolean): Timecode;
    (timeCode: number | string, frameRate?: number | [number, number], dropFrame?: boolean): Timecode;
  }
  const Timecode: TimecodeConstructor;
  export default Timecode;
}
