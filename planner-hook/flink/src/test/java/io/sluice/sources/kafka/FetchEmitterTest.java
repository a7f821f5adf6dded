package io.sluice.sources.kafka;

import io.sluice.jni.NativeLib;
import io.sluice.runtime.NativeBatch;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplitState;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The emitter of the native Kafka scan on fetches of the golden Kafka table (testkit/islands:
 * bids with WATERMARK FOR ts AS ts - INTERVAL '1' SECOND, ISO-8601 timestamps): one batch per
 * fetch with its rows in record order and its watermark, nothing emitted for a fetch without
 * rows, the split's offset after the fetch, and Flink's deserializer for the records Go leaves
 * to it; and the watermark generator that keeps a split's maximum.
 */
class FetchEmitterTest {
    static final RowType ROW = (RowType) LogicalTypeParser.parse(
            "ROW<`auction` INT, `bidder` BIGINT, `price` BIGINT, `ts` TIMESTAMP(3)>", FetchEmitterTest.class.getClassLoader());
    static final long BASE = 1_700_000_000_000L; // 2023-11-14T22:13:20Z

    /** Batches a source output received: their row counts and watermarks. */
    static final class Recorded implements SourceOutput<NativeBatch> {
        final List<long[]> batches = new ArrayList<>();

        @Override
        public void collect(NativeBatch batch) {
            batches.add(new long[] {batch.rows(), batch.watermark()});
        }

        @Override
        public void collect(NativeBatch batch, long timestamp) {
            collect(batch);
        }

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}
    }

    static byte[] scanJson() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (!Files.exists(dir.resolve("testkit/islands/testdata/kafka_scan_calc.json"))) {
            dir = dir.getParent();
        }
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode island = (ObjectNode) mapper.readTree(dir.resolve("testkit/islands/testdata/kafka_scan_calc.json").toFile());
        // The scan node alone, as the planner hands it to the source.
        island.set("nodes", mapper.createArrayNode().add(island.get("nodes").get(0)));
        return mapper.writeValueAsBytes(island);
    }

    static FetchEmitter emitter() throws Exception {
        NativeLib.ensureLoaded();
        JsonParserRowDataDeserializationSchema json = new JsonParserRowDataDeserializationSchema(
                ROW, InternalTypeInfo.of(ROW), false, false, TimestampFormat.ISO_8601);
        json.open(null);
        KafkaRecordDeserializationSchema<RowData> deserializer = KafkaRecordDeserializationSchema.valueOnly(json);
        return new FetchEmitter(scanJson(), deserializer, ROW);
    }

    static PartitionFetch fetch(long firstOffset, String... values) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            records.add(new ConsumerRecord<>("bids", 3, firstOffset + i, null,
                    values[i] == null ? null : values[i].getBytes(StandardCharsets.UTF_8)));
        }
        return new PartitionFetch(records);
    }

    static String bid(int auction, String ts) {
        return "{\"auction\":" + auction + ",\"price\":7,\"ts\":\"" + ts + "\"}";
    }

    @Test
    void oneBatchPerFetchWithItsWatermark() throws Exception {
        FetchEmitter e = emitter();
        Recorded out = new Recorded();
        KafkaPartitionSplitState state = new KafkaPartitionSplitState(new KafkaPartitionSplit(new TopicPartition("bids", 3), 10));
        long byFlink = FetchEmitter.recordsDecodedByFlink();
        e.emitRecord(fetch(10,
                bid(1, "2023-11-14T22:13:20.5"),
                "{\"auction\":2,\"auction\":3,\"price\":1,\"ts\":\"2023-11-14T22:13:30\"}", // duplicate key: Flink's
                null, // a tombstone: no row
                bid(4, "2023-11-14T22:13:25")), out, state);
        assertEquals(1, FetchEmitter.recordsDecodedByFlink() - byFlink, "the duplicate-key record is Flink's to decode");
        assertEquals(1, out.batches.size());
        assertEquals(3, out.batches.get(0)[0], "rows");
        assertEquals(BASE + 10_000 - 1_000, out.batches.get(0)[1], "the watermark is the maximum of ts - 1 s over the rows");
        assertEquals(14, state.getCurrentOffset(), "the offset after the fetch's last record");

        // A fetch without rows emits nothing (no watermark event), and the offset still moves.
        e.emitRecord(fetch(14, null, "", null), out, state);
        assertEquals(1, out.batches.size());
        assertEquals(17, state.getCurrentOffset());

        // A malformed record fails as stock Flink's emitter fails, after the rows before it.
        IOException failure = assertThrows(IOException.class,
                () -> e.emitRecord(fetch(17, bid(5, "2023-11-14T22:13:40"), "{\"auction\":"), out, state));
        assertTrue(failure.getMessage().startsWith("Failed to deserialize consumer record"), failure::getMessage);
        assertEquals(2, out.batches.size());
        assertEquals(1, out.batches.get(1)[0]);
        assertEquals(18, state.getCurrentOffset(), "the offset of the failing record");
        e.close();
    }

    @Test
    void watermarksKeepTheSplitsMaximum() {
        WatermarkGenerator<NativeBatch> g = new KafkaScan.FetchWatermarks().createWatermarkGenerator(null);
        List<Long> emitted = new ArrayList<>();
        WatermarkOutput out = new WatermarkOutput() {
            @Override
            public void emitWatermark(Watermark w) {
                emitted.add(w.getTimestamp());
            }

            @Override
            public void markIdle() {}

            @Override
            public void markActive() {}
        };
        g.onPeriodicEmit(out);
        g.onEvent(NativeBatch.ofSource(0, 1, 500), Long.MIN_VALUE, out);
        g.onEvent(NativeBatch.ofSource(0, 1, 300), Long.MIN_VALUE, out);
        g.onPeriodicEmit(out);
        g.onEvent(NativeBatch.ofSource(0, 1, Long.MIN_VALUE), Long.MIN_VALUE, out);
        g.onEvent(NativeBatch.ofSource(0, 1, 900), Long.MIN_VALUE, out);
        g.onPeriodicEmit(out);
        assertEquals(List.of(Long.MIN_VALUE, 500L, 900L), emitted, "periodic emission of the maximum so far, nothing on events");
    }
}
