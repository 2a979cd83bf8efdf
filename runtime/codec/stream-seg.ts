/**
 * How a stream path hangs off its parent (column `seg` of a codec's path table, docs/FORMAT.md §10.3): shared by
 * the stream machinery (../stream/) and the engine that builds each path's functions (./engine/stream.ts).
 */
export const StreamSeg = { ROOT: 0, PROPERTY: 1, ITEMS: 2, POSITION: 3, REST: 4, VALUES: 5, BRANCH: 6 } as const;

/** Column `flags` of the path table; bits 8..15 hold the extension level a property was added at. */
export const StreamPathFlag = { REQUIRED: 1, CLOSED: 2, INT64: 4, PLAIN: 8 } as const;
