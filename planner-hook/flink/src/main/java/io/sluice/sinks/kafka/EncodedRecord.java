package io.sluice.sinks.kafka;

/** A Kafka record Go encoded: its key (null without a key format) and its value (null: none). */
record EncodedRecord(byte[] key, byte[] value) {}
