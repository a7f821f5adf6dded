package io.sluice.sinks.iceberg;

import io.sluice.jni.NativeLib;
import io.sluice.runtime.NativeBatch;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FieldMetrics;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.Table;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.iceberg.shaded.org.apache.parquet.ParquetReadOptions;
import org.apache.iceberg.shaded.org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.iceberg.shaded.org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The task writer of a native Iceberg sink: Go encodes the native batches as Iceberg data files,
 * one open file per partition (as Iceberg's PartitionedFanoutWriter), whose bytes go to the files
 * Iceberg's {@link OutputFileFactory} names for each partition (any FileIO of the table); a file
 * is rolled once it reaches the target file size. Each finished file becomes a {@link DataFile} as
 * Iceberg's DataWriter makes it, with its partition and metrics computed by Iceberg's own
 * {@link ParquetUtil#footerMetrics} from the file's footer and the float metrics Go collected (as
 * Iceberg's float and double value writers do). Flink's Iceberg writer operator and committer
 * stay in charge of when files are completed and committed.
 */
public final class NativeIcebergTaskWriter implements TaskWriter<NativeBatch> {
    /** Data files completed by native task writers in this JVM (for tests). */
    public static final AtomicLong DATA_FILES = new AtomicLong();

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Table table;
    private final byte[] sinkJson;
    private final OutputFileFactory files;
    private final long targetFileSize;
    private final MetricsConfig metricsConfig;
    private final List<DataFile> completed = new ArrayList<>();
    /** The open data files, by Go's partition number. */
    private final Map<Integer, OpenFile> open = new HashMap<>();
    /** The partitions seen, by Go's partition number (null for an unpartitioned table). */
    private final Map<Integer, PartitionData> partitions = new HashMap<>();

    private long writer;

    /** A data file being written. */
    private record OpenFile(EncryptedOutputFile file, PositionOutputStream out, PartitionData partition) {
        String location() {
            return file.encryptingOutputFile().location();
        }
    }

    NativeIcebergTaskWriter(Table table, byte[] sinkJson, OutputFileFactory files, long targetFileSize) {
        this.table = table;
        this.sinkJson = sinkJson;
        this.files = files;
        this.targetFileSize = targetFileSize;
        this.metricsConfig = MetricsConfig.forTable(table);
    }

    @Override
    public void write(NativeBatch batch) throws IOException {
        byte[] frames;
        try {
            if (writer == 0) {
                writer = NativeLib.icebergWriterOpen(sinkJson);
            }
            frames = NativeLib.icebergWriterWrite(writer, batch.handle());
        } finally {
            if (batch.owned()) {
                batch.release();
            }
        }
        ByteBuffer in = ByteBuffer.wrap(frames);
        List<Integer> full = new ArrayList<>();
        while (in.hasRemaining()) {
            int partition = in.getInt();
            int length = in.getInt();
            OpenFile f = open.get(partition);
            if (f == null) {
                f = newFile(partition);
                open.put(partition, f);
            }
            f.out().write(frames, in.position(), length);
            in.position(in.position() + length);
            if (f.out().getPos() >= targetFileSize) {
                full.add(partition);
            }
        }
        for (int partition : full) {
            finishFile(partition);
        }
    }

    /** Opens the next data file of a partition, where the connector's writer would put it. */
    private OpenFile newFile(int partition) throws IOException {
        PartitionData p = partitions.containsKey(partition) ? partitions.get(partition) : partitionData(partition);
        partitions.put(partition, p);
        EncryptedOutputFile file = p == null ? files.newOutputFile() : files.newOutputFile(table.spec(), p);
        return new OpenFile(file, file.encryptingOutputFile().create(), p);
    }

    /** A partition's values as Iceberg's Java values of the partition fields' result types. */
    private PartitionData partitionData(int partition) throws IOException {
        if (table.spec().isUnpartitioned()) {
            return null;
        }
        return PartitionValues.of(table.spec(), NativeLib.icebergWriterPartition(writer, partition));
    }

    /** Completes a partition's open data file and adds it to the completed files. */
    private void finishFile(int partition) throws IOException {
        OpenFile f = open.remove(partition);
        byte[] tail;
        byte[] floats;
        try {
            tail = NativeLib.icebergWriterFinish(writer, partition);
            floats = NativeLib.icebergWriterFloatMetrics(writer, partition);
        } catch (RuntimeException e) {
            f.out().close();
            table.io().deleteFile(f.location());
            throw e;
        }
        f.out().write(tail);
        long length = f.out().getPos();
        f.out().close();
        ParquetMetadata footer = footer(tail, f.location());
        Metrics metrics = ParquetUtil.footerMetrics(footer, floatMetrics(floats), metricsConfig);
        DataFiles.Builder file = DataFiles.builder(table.spec())
                .withFormat(FileFormat.PARQUET)
                .withPath(f.location())
                .withFileSizeInBytes(length)
                .withMetrics(metrics)
                .withSplitOffsets(ParquetUtil.getSplitOffsets(footer));
        if (f.partition() != null) {
            file.withPartition(f.partition());
        }
        completed.add(file.build());
        DATA_FILES.incrementAndGet();
    }

    /** The footer at the end of a Parquet file's last bytes: metadata, its length, "PAR1". */
    private static ParquetMetadata footer(byte[] tail, String location) throws IOException {
        int n = tail.length;
        if (n < 8) {
            throw new IOException("Sluice wrote no Parquet footer for " + location);
        }
        int len = ByteBuffer.wrap(tail, n - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        if (len <= 0 || len > n - 8) {
            throw new IOException("Sluice's Parquet footer of " + location + " is not in its last write");
        }
        // A converter with read options: without them it has no limit for thrift messages (-1) and
        // fails. Made by reflection: javac would need Hadoop's Configuration (another overload).
        ParquetMetadataConverter converter;
        try {
            converter = ParquetMetadataConverter.class.getConstructor(ParquetReadOptions.class)
                    .newInstance(ParquetReadOptions.builder(new PlainParquetConfiguration()).build());
        } catch (ReflectiveOperationException e) {
            throw new IOException("cannot read the Parquet footer of " + location, e);
        }
        return converter.readParquetMetadata(
                new ByteArrayInputStream(tail, n - 8 - len, len), ParquetMetadataConverter.NO_FILTER, null, false, len);
    }

    /** Go's float metrics as the FieldMetrics Iceberg's float and double writers report. */
    private Stream<FieldMetrics<?>> floatMetrics(byte[] json) throws IOException {
        List<FieldMetrics<?>> out = new ArrayList<>();
        for (JsonNode m : MAPPER.readTree(json)) {
            int id = m.get("id").asInt();
            long nulls = m.get("nulls").asLong();
            long values = m.get("values").asLong() + nulls;
            long nans = m.get("nans").asLong();
            boolean bounds = m.has("lower");
            double lower = bounds ? Double.longBitsToDouble(m.get("lower").asLong()) : 0;
            double upper = bounds ? Double.longBitsToDouble(m.get("upper").asLong()) : 0;
            Type type = table.schema().findType(id);
            if (type.typeId() == Type.TypeID.FLOAT) {
                out.add(new FieldMetrics<>(id, values, nulls, nans,
                        bounds ? (float) lower : null, bounds ? (float) upper : null, type));
            } else {
                out.add(new FieldMetrics<>(id, values, nulls, nans,
                        bounds ? lower : null, bounds ? upper : null, type));
            }
        }
        return out.stream();
    }

    @Override
    public void abort() throws IOException {
        close();
        for (DataFile f : completed) {
            table.io().deleteFile(f.location());
        }
    }

    @Override
    public WriteResult complete() throws IOException {
        for (int partition : new ArrayList<>(open.keySet())) {
            finishFile(partition);
        }
        return WriteResult.builder().addDataFiles(completed).build();
    }

    @Override
    public void close() throws IOException {
        try {
            for (OpenFile f : open.values()) {
                f.out().close();
                table.io().deleteFile(f.location());
            }
        } finally {
            open.clear();
            if (writer != 0) {
                NativeLib.close(writer);
                writer = 0;
            }
        }
    }
}
