/** Types of scripts/buildState.mjs (plain JavaScript: scripts/build.mjs runs before anything is compiled). */
export declare const BUILD_INPUTS: readonly string[];
export declare function distUpToDate(dir: string): boolean;
export declare function takeBuildLock(dir: string, waitMs?: number): () => void;
