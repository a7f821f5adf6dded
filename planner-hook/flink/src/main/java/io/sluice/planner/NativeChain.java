package io.sluice.planner;

import io.sluice.runtime.ChainShape;

import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.types.logical.RowType;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;

import java.util.List;

import static org.apache.flink.table.planner.utils.ShortcutUtils.unwrapTableConfig;

/**
 * What a native chain's physical node carries, whatever its number of inputs: the island JSON
 * Go runs, the chain's shape, the fields its state is keyed by and how explain describes it.
 *
 * @param rowType the row type of the chain's last node
 * @param stateKeys the (first) input's fields a keyed chain is keyed by, or null
 * @param nodes the descriptions of the chain's nodes, in data-flow order
 */
record NativeChain(
        RelDataType rowType, byte[] islandJson, ChainShape shape, int[] stateKeys, List<String> nodes,
        boolean requireWatermark) {

    /** The exec node of the chain rel {@code rel}, whose first input is {@code first}. */
    ExecNode<?> execNode(RelNode rel, RelNode first, int inputs) {
        return new StreamExecSluice(
                unwrapTableConfig(rel),
                islandJson,
                shape,
                (RowType) FlinkTypeFactory.toLogicalRowType(first.getRowType()),
                (RowType) FlinkTypeFactory.toLogicalRowType(rowType),
                stateKeys,
                ((org.apache.flink.table.planner.plan.nodes.physical.FlinkPhysicalRel) rel).getRelDetailedDescription(),
                inputs);
    }

    /** The chain's nodes for explain. */
    String describe() {
        return String.join(" -> ", nodes);
    }
}
