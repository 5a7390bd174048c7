package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.NotifyListener;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** Records every notification; checks that calls never overlap. */
final class RecordingListener implements NotifyListener {

    private final List<List<URL>> lists = new CopyOnWriteArrayList<>();
    private final AtomicInteger inside = new AtomicInteger();
    private volatile boolean overlapped;

    @Override
    public void notify(List<URL> urls) {
        if (inside.incrementAndGet() != 1) {
            overlapped = true;
        }
        lists.add(List.copyOf(urls));
        inside.decrementAndGet();
    }

    /** The category a delivered list belongs to. */
    static String categoryOf(List<URL> urls) {
        URL first = urls.get(0);
        return first.getParameter("category", "providers");
    }

    List<List<URL>> lists(String category) {
        List<List<URL>> result = new ArrayList<>();
        for (List<URL> list : lists) {
            if (categoryOf(list).equals(category)) {
                result.add(list);
            }
        }
        return result;
    }

    /** The last list of {@code category}, or {@code null}. */
    List<URL> last(String category) {
        List<List<URL>> of = lists(category);
        return of.isEmpty() ? null : of.get(of.size() - 1);
    }

    /** The hosts:ports of the last providers list ([] for an empty marker, null before any). */
    List<String> lastAddresses() {
        List<URL> last = last("providers");
        if (last == null) {
            return null;
        }
        return last.stream().filter(u -> !u.getProtocol().equals("empty")).map(URL::getAddress).sorted().toList();
    }

    boolean lastIsEmpty(String category) {
        List<URL> last = last(category);
        return last != null && last.size() == 1 && last.get(0).getProtocol().equals("empty");
    }

    int count() {
        return lists.size();
    }

    List<List<URL>> all() {
        return List.copyOf(lists);
    }

    boolean overlapped() {
        return overlapped;
    }

    @Override
    public String toString() {
        return lists.toString();
    }
}
