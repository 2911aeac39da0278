package io.muster.codec;

import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;

/**
 * Jackson factories that keep their buffer pool in the factory, not in the container's request threads. Jackson's
 * default pool is a ThreadLocal of soft references: on Tomcat, where Jackson lives in WEB-INF/lib, those values
 * pin the undeployed application's class loader to the server's worker threads.
 *
 * <p>Parsers refuse duplicate keys: with them a body means different things to different readers (Jackson keeps
 * the last value, other parsers the first), so one could pass our checks and mean something else to a client.
 */
public final class JsonFactories {
    private JsonFactories() {
    }

    public static JsonFactoryBuilder builder() {
        JsonFactoryBuilder b = new JsonFactoryBuilder();
        b.recyclerPool(JsonRecyclerPools.newConcurrentDequePool());
        b.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
        return b;
    }

    public static JsonFactory create() {
        return builder().build();
    }
}
