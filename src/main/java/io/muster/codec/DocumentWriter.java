package io.muster.codec;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes an {@code applications} document to a stream one application at a time: the bytes of
 * {@link EurekaCodec#encode(WireFormat, io.muster.model.Applications, Detail)} for all of {@code document}'s
 * applications,
 * without the whole document (100 MB at 100,000 instances) or a decorated copy of every instance ever existing at
 * once. For the registry snapshot, written every 30 s. Stateless.
 *
 * <p>Each JSON application is encoded into one buffer kept for the whole document: an array per application (grown
 * by doubling, then copied out) allocated four times the document, 650 MB per snapshot at 100,000 instances, about
 * a third of all a busy node allocated and a cause of its longest collection pauses.
 */
public final class DocumentWriter {
    private DocumentWriter() {
    }

    public static void write(OutputStream out, WireFormat format, Detail detail, AppsDocument document)
            throws IOException {
        Envelope envelope = Envelope.of(format, document.version(), document.appsHashCode(), detail);
        out.write(envelope.head());
        boolean first = true;
        Scratch scratch = new Scratch();
        int from = Envelope.listFormStart(format);
        for (AppsDocument.App app : document.apps()) {
            if (!first) {
                out.write(envelope.separator());
            }
            first = false;
            if (format == WireFormat.JSON) {
                Scratch.Stream buffer = scratch.stream();
                JsonEncoder.application(buffer, app.content().get(), detail);
                out.write(buffer.array(), from, Envelope.listFormEnd(format, buffer.size()) - from);
            } else {
                byte[] doc = EurekaCodec.encode(format, app.content().get(), detail);
                out.write(doc, from, Envelope.listFormEnd(format, doc.length) - from);
            }
        }
        out.write(envelope.tail());
    }
}
