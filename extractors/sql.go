package extractors

import (
	"fmt"
	"regexp"
	"strings"
)

var (
	psqlRowsRe  = regexp.MustCompile(`^\((\d+) rows?\)$`)
	mysqlRowsRe = regexp.MustCompile(`^(\d+) rows? in set`)
	sqlSepRe    = regexp.MustCompile(`^[-+|: ]*-{3,}[-+|: ]*$`)
	sqlErrRe    = regexp.MustCompile(`(?i)^(?:ERROR|Error|Parse error|Runtime error)(?: \d+)?(?: \([^)]*\))?(?: at line \d+)?:?\s`)
)

// sqlSummary summarizes a query result printed as a table (psql, mysql,
// sqlite3 with or without headers, markdown): row count and column names.
func sqlSummary(tool, query string, env envelope) ToolSummary {
	s := ToolSummary{Tool: tool, Status: StatusSuccess, Metadata: map[string]string{MetaKind: KindSQL}}
	if query != "" {
		s.KeyFacts = append(s.KeyFacts, "Query: "+shorten(strings.Join(strings.Fields(query), " "), 120))
	}
	body := env.body
	if f := jsonFacts(body); f != nil {
		s.KeyFacts = append(s.KeyFacts, f...)
		return s
	}
	var header []string
	rows, declared := 0, -1
	var prev string
	errLine := ""
	eachLine(body, func(_ int, line string) bool {
		line = strings.TrimRight(line, "\r ")
		t := strings.TrimSpace(line)
		if t == "" {
			return true
		}
		if errLine == "" && sqlErrRe.MatchString(t) {
			errLine = t
			return true
		}
		if m := psqlRowsRe.FindStringSubmatch(t); m != nil {
			fmt.Sscan(m[1], &declared)
			return true
		}
		if m := mysqlRowsRe.FindStringSubmatch(t); m != nil {
			fmt.Sscan(m[1], &declared)
			return true
		}
		if sqlSepRe.MatchString(t) {
			if header == nil && prev != "" {
				header = splitRow(prev)
				rows = 0
			}
			return true
		}
		rows++
		prev = t
		return true
	})
	if header == nil && rows > 0 {
		// No separator: sqlite3's "a|b|c" or tab-separated rows.
		first := firstLine(body)
		if n := len(splitRow(first)); n > 1 {
			s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Columns: %d", n))
		}
	}
	if declared >= 0 {
		rows = declared
	}
	if errLine != "" {
		s.Status = StatusError
		s.KeyFacts = append(s.KeyFacts, "Error: "+shorten(errLine, 160))
		s.Metadata[MetaError] = errLine
		return s
	}
	s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Rows: %d", rows))
	if len(header) > 0 {
		cols := header
		more := ""
		if len(cols) > maxJSONKeys {
			more = fmt.Sprintf(", +%d more", len(cols)-maxJSONKeys)
			cols = cols[:maxJSONKeys]
		}
		s.KeyFacts = append(s.KeyFacts, "Columns: "+strings.Join(cols, ", ")+more)
	}
	return s
}

// splitRow splits a table row on "|" or tabs and trims the cells.
func splitRow(line string) []string {
	sep := "|"
	if !strings.Contains(line, "|") {
		sep = "\t"
	}
	parts := strings.Split(strings.Trim(line, "| "), sep)
	out := parts[:0]
	for _, p := range parts {
		out = append(out, strings.TrimSpace(p))
	}
	return out
}

// sqlExtract is the extractor of SQL tools (sql, query, run_sql,
// sql_db_query, ...): rows and columns of the result, or the error.
func sqlExtract(call Call, output string) ToolSummary {
	a := parseArgs(call.Arguments)
	q := a.str(sqlKeys...)
	if q == "" && a.m == nil {
		q = a.raw
	}
	return sqlSummary(call.Name, q, unwrap(output))
}
