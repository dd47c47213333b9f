// A file to write into an environment and who owns it: what the Runtime's writes take and the
// tar archives that carry them are made of (its own module so that neither imports the other).

/** A file to write: path relative to the folder it goes into. */
export interface FileEntry { path: string; content: Buffer | string; mode?: number }
export interface Owner { uid: number; gid: number }
export const IDE_USER: Owner = { uid: 1000, gid: 1000 };
export const ROOT: Owner = { uid: 0, gid: 0 };
