package org.pwpsamples.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CsvLineTest {
    @Test
    void splitsPlainFields() {
        assertEquals(List.of("a", "b", "c"), CsvLine.split("a,b,c"));
    }

    @Test
    void keepsEmptyFields() {
        assertEquals(List.of("", "x", ""), CsvLine.split(",x,"));
    }

    @Test
    void keepsCommasInQuotes() {
        assertEquals(List.of("Smith, Jane", "42"), CsvLine.split("\"Smith, Jane\",42"));
    }

    @Test
    void joinsWithQuotesWhereNeeded() {
        assertEquals("plain,\"a,b\"", CsvLine.join(List.of("plain", "a,b")));
    }
}
