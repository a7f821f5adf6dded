package io.sluice.sinks.kafka;

/**
 * A Kafka record Go encoded: its key (null without a key format), its value (null: none) and its
 * timestamp (null: the producer's, without a written 'timestamp' metadata column).
 */
record EncodedRecord(byte[] key, byte[] value, Long timestamp) {}
