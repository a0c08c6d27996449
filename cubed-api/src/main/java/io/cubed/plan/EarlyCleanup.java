package io.cubed.plan;

import io.cubed.runtime.Callback;
import io.cubed.storage.Store;
import io.cubed.storage.fs.Stores;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Deletes intermediates whose readers have all finished, as operations end. */
final class EarlyCleanup implements Callback {
    private final Spec spec;
    private final String intermediateDir;
    private final Map<String, java.util.Set<String>> pendingReaders = new HashMap<>();
    private final Map<String, String> urlOf = new HashMap<>();

    /**
     * Watches the intermediates {@code plan} stores under {@code intermediateDir} (by {@code urls}), whose readers are
     * the operations that run ({@code fusion}) in their stages ({@code siblings}).
     */
    EarlyCleanup(
            Spec spec,
            Plan plan,
            Fusion fusion,
            SiblingReads siblings,
            Map<ArrayNode, String> urls,
            String intermediateDir) {
        this.spec = spec;
        this.intermediateDir = intermediateDir;
        Set<ArrayNode> targets = new HashSet<>(plan.targets());
        for (OpNode op : plan.ops()) {
            if (fusion.isFused(op)) {
                continue;
            }
            for (ArrayNode out : op.outputs()) {
                if (targets.contains(out)) {
                    continue;
                }
                java.util.Set<String> ids = new HashSet<>();
                for (OpNode r : readers(plan, fusion, out)) {
                    ids.add(siblings.stageOf(r).id());
                }
                pendingReaders.put(out.name(), ids);
                urlOf.put(out.name(), urls.get(out));
            }
        }
    }

    @Override
    public synchronized void onOperationEnd(OperationEnd event) {
        String done = event.stage().id();
        String dir = intermediateDir;
        String prefix = dir.substring(dir.lastIndexOf('/') + 1);
        Store work = Stores.open(spec.workDir(), spec.storeOptions());
        for (Map.Entry<String, java.util.Set<String>> e : pendingReaders.entrySet()) {
            if (e.getValue().remove(done) && e.getValue().isEmpty()) {
                String url = urlOf.get(e.getKey());
                work.deletePrefix(prefix + "/" + url.substring(url.lastIndexOf('/') + 1));
            }
        }
    }

    /** The running operations that read {@code a}'s stored array, looking through fused operations. */
    static Set<OpNode> readers(Plan plan, Fusion fusion, ArrayNode a) {
        Set<OpNode> out = new HashSet<>();
        for (OpNode op : plan.ops()) {
            if (op.inputs().contains(a)) {
                if (fusion.isFused(op)) {
                    for (ArrayNode o : op.outputs()) {
                        out.addAll(readers(plan, fusion, o));
                    }
                } else {
                    out.add(op);
                }
            }
        }
        return out;
    }
}
