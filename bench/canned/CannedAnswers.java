import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A web application that answers the churn mix of {@code LoadTool mixed} with the status lines and headers Muster
 * answers it with, and does nothing else: a heartbeat gets 200, a registration 204 once its body is read, a delta
 * fetch a delta Muster served under that load (saved beforehand as WEB-INF/delta.json.gz). What it costs the
 * container per request is what any web application must pay on that Tomcat for that mix: the churn floor that
 * bench/compare.sh sets beside Muster's and the anchor's figures. Not part of Muster.
 */
public final class CannedAnswers extends HttpServlet {
    private volatile byte[] delta;

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse rsp) throws IOException {
        switch (req.getMethod()) {
            case "PUT" -> {
                rsp.setStatus(200);
                rsp.setContentLength(0);
            }
            case "POST" -> {
                try (InputStream body = req.getInputStream()) {
                    body.transferTo(OutputStream.nullOutputStream());
                }
                rsp.setStatus(204);
            }
            case "GET" -> {
                if (!req.getRequestURI().endsWith("/apps/delta")) {
                    rsp.sendError(404);
                    return;
                }
                byte[] body = delta();
                rsp.setStatus(200);
                rsp.setHeader("Content-Encoding", "gzip");
                rsp.setHeader("Vary", "Accept, Accept-Encoding, X-Eureka-Accept");
                rsp.setContentType("application/json");
                rsp.setContentLength(body.length);
                rsp.getOutputStream().write(body);
            }
            default -> rsp.sendError(405);
        }
    }

    private byte[] delta() throws IOException {
        byte[] d = delta;
        if (d == null) {
            d = Files.readAllBytes(Path.of(getServletContext().getRealPath("/WEB-INF/delta.json.gz")));
            delta = d;
        }
        return d;
    }
}
