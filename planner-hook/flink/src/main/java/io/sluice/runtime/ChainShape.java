package io.sluice.runtime;

import java.io.Serializable;
import java.util.List;

/**
 * What a native operator's chain is made of, as far as the Java side cares: whether it starts
 * with a watermark assigner (then watermark emission and idleness follow Flink's
 * WatermarkAssignerOperator), whether it starts with a keyed window aggregation (then it has raw
 * keyed state and a watermark in union list state), and whether every output row comes from one
 * input row (then output rows keep their input rows' timestamps).
 *
 * @param nodeTypes the exec-node types of the chain, in data-flow order
 * @param idleTimeout the watermark assigner's idle timeout in ms (0: none)
 * @param batchInput the chain reads Arrow batches ({@link NativeBatch} records of a native scan
 *     or a columnar exchange) instead of rows
 * @param batchOutput the chain emits {@link NativeBatch} records (to a native sink, or to a
 *     columnar exchange)
 * @param exchangeOutput the chain feeds a columnar hash exchange: its batches are split per
 *     target channel
 * @param procTime the chain starts with a processing-time window aggregation or interval join:
 *     rows carry their arrival times into Go, and windows fire (a join's caches are cleaned) on
 *     processing-time timers
 * @param miniBatchInterval the interval in ms of the chain's mini-batch assigner on processing
 *     time (0: none), whose clock and timer live in the Java operator as in Flink's
 *     ProcTimeMiniBatchAssignerOperator
 */
public record ChainShape(
        List<String> nodeTypes, boolean watermarkAssigner, boolean keyed, boolean rowMapping, long idleTimeout,
        boolean batchInput, boolean batchOutput, boolean exchangeOutput, boolean procTime,
        long miniBatchInterval)
        implements Serializable {}
