import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Merges the RESULT lines of both servers into one Markdown table with Muster / anchor ratios. */
public final class Report {
    public static void main(String[] args) throws Exception {
        Map<String, String> muster = read(Path.of(args[0]));
        Map<String, String> anchor = read(Path.of(args[1]));
        StringBuilder md = new StringBuilder();
        md.append("Muster (embedded Payara) vs anchor (Spring Cloud Netflix Eureka Server), heap `")
                .append(args.length > 2 ? args[2] : "").append("`, ")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores shared with the load tool.\n\n");
        md.append("| metric | Muster | anchor | Muster / anchor |\n|---|---:|---:|---:|\n");
        for (String key : muster.keySet()) {
            if (key.equals("scenario") || key.equals("url")) {
                continue;
            }
            String m = muster.get(key);
            String a = anchor.getOrDefault(key, "");
            md.append("| ").append(key).append(" | ").append(m).append(" | ").append(a).append(" | ")
                    .append(ratio(m, a)).append(" |\n");
        }
        System.out.print(md);
    }

    private static String ratio(String m, String a) {
        try {
            double x = Double.parseDouble(m);
            double y = Double.parseDouble(a);
            return y == 0 ? "" : String.format("%.2f", x / y);
        } catch (NumberFormatException e) {
            return "";
        }
    }

    private static Map<String, String> read(Path file) throws Exception {
        Map<String, String> values = new LinkedHashMap<>();
        Pattern p = Pattern.compile("\"([^\"]+)\":(\"[^\"]*\"|[-0-9.Ee]+)");
        for (String line : Files.readAllLines(file)) {
            Matcher m = p.matcher(line);
            while (m.find()) {
                values.put(m.group(1), m.group(2).replace("\"", ""));
            }
        }
        return values;
    }
}
