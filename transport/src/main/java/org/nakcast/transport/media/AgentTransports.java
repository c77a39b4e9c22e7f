package org.nakcast.transport.media;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * The sockets an agent (sending or receiving) holds, one set per transport address, and the
 * command queue through which application threads hand it work. A transport is opened on the
 * calling application thread, so a port in use fails that call; it reaches the agent's thread
 * through the queue. Callers look transports up among those opened, never among those the agent
 * polls (that list fills later), so one address is never opened twice.
 *
 * @param <T> the agent's socket set for one transport
 */
public final class AgentTransports<T> {
    private static final int QUEUE_CAPACITY = 1024;
    private static final int COMMAND_LIMIT = 16;

    private final Function<T, MulticastAddress> addressOf;
    private final ManyToOneConcurrentArrayQueue<Runnable> commands =
        new ManyToOneConcurrentArrayQueue<>(QUEUE_CAPACITY);
    /** Every transport opened, as application threads know them; guarded by this. */
    private final List<T> opened = new ArrayList<>();
    /** The transports the agent polls; touched by the agent's thread only. */
    private final List<T> polled = new ArrayList<>();

    /** @param addressOf the address of a socket set */
    public AgentTransports(Function<T, MulticastAddress> addressOf) {
        this.addressOf = addressOf;
    }

    /**
     * The socket set for {@code address}, opened with {@code open} the first time.
     *
     * @throws org.nakcast.transport.TransportException from {@code open} if a socket cannot be opened
     */
    public synchronized T open(MulticastAddress address, Function<MulticastAddress, T> open) {
        for (T transport : opened) {
            if (addressOf.apply(transport).equals(address)) {
                return transport;
            }
        }
        final T transport = open.apply(address);
        opened.add(transport);
        enqueue(() -> polled.add(transport));
        return transport;
    }

    /** Hands work to the agent's thread; waits while the queue is full. */
    public void enqueue(Runnable command) {
        while (!commands.offer(command)) {
            Thread.onSpinWait();
        }
    }

    /** Runs queued commands on the agent's thread; returns how many. */
    public int runCommands() {
        return commands.drain(Runnable::run, COMMAND_LIMIT);
    }

    /** How many transports the agent polls; agent's thread only. */
    public int size() {
        return polled.size();
    }

    /** The {@code index}th transport the agent polls; agent's thread only. */
    public T get(int index) {
        return polled.get(index);
    }

    /** Applies {@code action} to every transport opened, polled yet or not: for closing. */
    public synchronized void forEachOpened(Consumer<T> action) {
        opened.forEach(action);
    }
}
