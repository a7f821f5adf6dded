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

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The task writer of a native Iceberg sink: Go encodes the native batches as an Iceberg data file
 * whose bytes go to the file Iceberg's {@link OutputFileFactory} names (any FileIO of the table);
 * a file is rolled once it reaches the target file size. Each finished file becomes a
 * {@link DataFile} as Iceberg's DataWriter makes it, with metrics computed by Iceberg's own
 * {@link ParquetUtil#footerMetrics} from the file's footer and the float metrics Go collected
 * (as Iceberg's float and double value writers do). Flink's Iceberg writer operator and
 * committer stay in charge of when files are completed and committed.
 */
public final class NativeIcebergTaskWriter implements TaskWriter<NativeBatch> {
    /** Data files completed by native task writers in this JVM (for tests). */
    public static final AtomicLong DATA_FILES = new AtomicLong();

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Table table;
    private final byte[] sinkJson;
    private final OutputFileFactory files;
    private final long targetFileSize;
    private final List<DataFile> completed = new ArrayList<>();

    private long writer;
    private EncryptedOutputFile file;
    private PositionOutputStream out;

    NativeIcebergTaskWriter(Table table, byte[] sinkJson, OutputFileFactory files, long targetFileSize) {
        this.table = table;
        this.sinkJson = sinkJson;
        this.files = files;
        this.targetFileSize = targetFileSize;
    }

    @Override
    public void write(NativeBatch batch) throws IOException {
        try {
            if (writer == 0) {
                file = files.newOutputFile();
                out = file.encryptingOutputFile().create();
                writer = NativeLib.icebergWriterOpen(sinkJson);
            }
            out.write(NativeLib.parquetWriterWrite(writer, batch.handle()));
        } finally {
            if (batch.owned()) {
                batch.release();
            }
        }
        if (out.getPos() >= targetFileSize) {
            finishFile();
        }
    }

    /** Completes the open data file (if any) and adds it to the completed files. */
    private void finishFile() throws IOException {
        if (writer == 0) {
            return;
        }
        byte[] tail;
        byte[] floats;
        try {
            tail = NativeLib.parquetWriterFinish(writer);
            floats = NativeLib.icebergWriterFloatMetrics(writer);
        } catch (RuntimeException e) {
            close(); // releases the writer and deletes the unfinished file
            throw e;
        }
        NativeLib.close(writer);
        writer = 0;
        out.write(tail);
        long length = out.getPos();
        out.close();
        out = null;
        ParquetMetadata footer = footer(tail, file.encryptingOutputFile().location());
        Metrics metrics = ParquetUtil.footerMetrics(footer, floatMetrics(floats), MetricsConfig.forTable(table));
        completed.add(DataFiles.builder(table.spec())
                .withFormat(FileFormat.PARQUET)
                .withPath(file.encryptingOutputFile().location())
                .withFileSizeInBytes(length)
                .withMetrics(metrics)
                .withSplitOffsets(ParquetUtil.getSplitOffsets(footer))
                .build());
        file = null;
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
        finishFile();
        return WriteResult.builder().addDataFiles(completed).build();
    }

    @Override
    public void close() throws IOException {
        if (writer != 0) {
            NativeLib.close(writer);
            writer = 0;
            try {
                out.close();
            } finally {
                out = null;
                table.io().deleteFile(file.encryptingOutputFile().location());
            }
        }
    }
}
