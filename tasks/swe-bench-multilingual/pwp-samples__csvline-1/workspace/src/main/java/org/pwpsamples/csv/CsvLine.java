package org.pwpsamples.csv;

import java.util.ArrayList;
import java.util.List;

/** Splits one record of comma-separated values, as RFC 4180 writes them. */
public final class CsvLine {
    private CsvLine() {
    }

    /**
     * The fields of {@code line}. A field in double quotes may hold commas; the quotes around it
     * are not part of the value.
     */
    public static List<String> split(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }

    /** The record {@code split} reads back as {@code fields}: a field with a comma or a quote is quoted. */
    public static String join(List<String> fields) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            String f = fields.get(i);
            if (i > 0) {
                out.append(',');
            }
            if (f.contains(",") || f.contains("\"")) {
                out.append('"').append(f.replace("\"", "\"\"")).append('"');
            } else {
                out.append(f);
            }
        }
        return out.toString();
    }
}
