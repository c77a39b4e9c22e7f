/**
 * How a recording is kept on disk: preallocated, memory-mapped segment files of checksummed frames
 * ({@link org.nakcast.recorder.store.SegmentFile}, {@link org.nakcast.recorder.store.RecordFrame})
 * with a sparse index in each, appended by one {@link org.nakcast.recorder.store.RecordingWriter},
 * read by any number of {@link org.nakcast.recorder.store.RecordingReader}s, and made clean after a
 * crash by {@link org.nakcast.recorder.store.RecordingRecovery}. Every message index of a recording
 * is accounted for by a MESSAGE or a HOLE frame: nothing is skipped silently.
 */
package org.nakcast.recorder.store;
