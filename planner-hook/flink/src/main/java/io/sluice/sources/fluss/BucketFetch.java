package io.sluice.sources.fluss;

import org.apache.fluss.metadata.TableBucket;

/**
 * What one fetch of a bucket's log returned: the whole log batches as the tablet server sent
 * them (headers, change types and Arrow messages, untouched), the offset the fetch asked for and
 * the offset after its last whole batch. The emitter hands the bytes to Go in one call and then
 * moves the split's offset to {@link #nextOffset}, so that a checkpoint between two fetches holds
 * the offset stock Fluss's reader would after the same rows.
 */
record BucketFetch(String splitId, TableBucket bucket, byte[] records, long fromOffset, long nextOffset) {}
