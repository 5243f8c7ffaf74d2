package extractors

import (
	"fmt"
	"regexp"
	"strings"
)

var (
	httpStatusRe = regexp.MustCompile(`^(?:< )?HTTP/[\d.]+ (\d{3})(?: (.*))?$`)
	httpCTRe     = regexp.MustCompile(`(?i)^(?:< )?content-type:\s*([^;\s]+)`)
	htmlTitleRe  = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)
)

// httpSummary summarizes an HTTP response as printed by a fetch tool or
// curl: status, content type, body size, HTML title or JSON shape.
func httpSummary(tool, url string, env envelope) ToolSummary {
	s := ToolSummary{Tool: tool, Status: StatusSuccess, Metadata: map[string]string{MetaKind: KindHTTP}}
	if url != "" {
		s.KeyFacts = append(s.KeyFacts, "URL: "+shorten(url, 160))
		s.Metadata[MetaPath] = url
	}
	body := env.body
	status, ctype := "", ""
	headerEnd := 0
	// Headers, if printed (curl -i / -v / -I), come first.
	eachLine(body[:min(len(body), 16<<10)], func(i int, line string) bool {
		line = strings.TrimRight(line, "\r")
		if m := httpStatusRe.FindStringSubmatch(line); m != nil {
			status = strings.TrimSpace(m[1] + " " + m[2])
		} else if m := httpCTRe.FindStringSubmatch(line); m != nil {
			ctype = m[1]
		}
		if status != "" && strings.TrimSpace(line) == "" {
			headerEnd = strings.Index(body, "\n\n")
			return false
		}
		return i < 60
	})
	payload := body
	if headerEnd > 0 && headerEnd < len(body) {
		payload = body[headerEnd+2:]
	}
	if status != "" {
		s.KeyFacts = append(s.KeyFacts, "Status: "+status)
		if status[0] == '4' || status[0] == '5' {
			s.Status = StatusError
			s.Metadata[MetaError] = "HTTP " + status
		}
	}
	trim := strings.TrimSpace(payload)
	if ctype == "" {
		switch {
		case strings.HasPrefix(trim, "{") || strings.HasPrefix(trim, "["):
			ctype = "application/json"
		case strings.HasPrefix(strings.ToLower(trim[:min(len(trim), 100)]), "<!doctype html") || strings.Contains(strings.ToLower(trim[:min(len(trim), 1000)]), "<html"):
			ctype = "text/html"
		}
	}
	if ctype != "" {
		s.KeyFacts = append(s.KeyFacts, "Type: "+ctype)
	}
	s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Size: %s", humanBytes(len(payload))))
	if strings.Contains(ctype, "html") {
		if m := htmlTitleRe.FindStringSubmatch(payload[:min(len(payload), 64<<10)]); m != nil {
			s.KeyFacts = append(s.KeyFacts, "Title: "+shorten(strings.Join(strings.Fields(m[1]), " "), 120))
		}
	} else if strings.Contains(ctype, "json") {
		s.KeyFacts = append(s.KeyFacts, jsonFacts(trim)...)
	} else if l := firstLine(payload); l != "" {
		s.KeyFacts = append(s.KeyFacts, "First: "+shorten(l, 120))
	}
	if e := errorSummary(payload[:min(len(payload), 4096)]); status == "" && e != "" && strings.Contains(strings.ToLower(e), "curl") {
		s.Status = StatusError
		s.KeyFacts = append(s.KeyFacts, "Error: "+shorten(e, 160))
		s.Metadata[MetaError] = e
	}
	return s
}

// httpExtract is the extractor of HTTP fetch tools (http_get, fetch,
// web_fetch, requests_get, curl, ...).
func httpExtract(call Call, output string) ToolSummary {
	a := parseArgs(call.Arguments)
	url := a.str(urlKeys...)
	if url == "" && a.m == nil {
		url = firstLine(a.raw)
	}
	return httpSummary(call.Name, url, unwrap(output))
}
