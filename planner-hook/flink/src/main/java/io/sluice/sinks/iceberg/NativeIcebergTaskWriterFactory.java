package io.sluice.sinks.iceberg;

import io.sluice.jni.NativeLib;
import io.sluice.runtime.NativeBatch;

import org.apache.iceberg.FileFormat;
import org.apache.iceberg.SerializableTable;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.sink.TaskWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.TaskWriter;

/**
 * Makes the {@link NativeIcebergTaskWriter}s of one writer subtask, with the file names
 * Iceberg's {@link OutputFileFactory} gives the connector's writers (partition id = subtask,
 * the attempt number, a random operation id, a counter).
 */
final class NativeIcebergTaskWriterFactory implements TaskWriterFactory<NativeBatch> {
    private static final long serialVersionUID = 1L;

    private final Table table;
    private final byte[] sinkJson;
    private final long targetFileSize;
    private transient OutputFileFactory files;

    /**
     * @param table the table (a serializable copy is kept)
     * @param sinkJson the island JSON of the sink node
     * @param targetFileSize 'write.target-file-size-bytes' as the connector resolves it
     */
    NativeIcebergTaskWriterFactory(Table table, byte[] sinkJson, long targetFileSize) {
        this.table = SerializableTable.copyOf(table);
        this.sinkJson = sinkJson;
        this.targetFileSize = targetFileSize;
    }

    @Override
    public void initialize(int taskId, int attemptId) {
        NativeLib.ensureLoaded();
        files = OutputFileFactory.builderFor(table, taskId, attemptId).format(FileFormat.PARQUET).build();
    }

    @Override
    public TaskWriter<NativeBatch> create() {
        if (files == null) {
            throw new IllegalStateException("the native Iceberg task writer factory was not initialized");
        }
        return new NativeIcebergTaskWriter(table, sinkJson, files, targetFileSize);
    }
}
