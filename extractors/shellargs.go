package extractors

import (
	"regexp"
	"strings"

	"github.com/agentcompact/compact/internal/shellwords"
)

// sedRangeRe matches the print command of "sed -n 'a,bp'".
var sedRangeRe = regexp.MustCompile(`^(\d+)(?:,(\d+|\$))?p$`)

// fileArgs returns the non-option arguments after skip leading ones.
func fileArgs(args []string, skip int) []string {
	var out []string
	for k := skip; k < len(args); k++ {
		a := args[k]
		if a == "" || strings.HasPrefix(a, "-") && a != "-" {
			continue
		}
		out = append(out, a)
	}
	return out
}

// fileArgsKeepAll returns args unchanged (xargs passes them through).
func fileArgsKeepAll(args []string) []string { return append([]string(nil), args...) }

// fileArgsSkipValues returns non-option arguments, skipping the values of
// the given options (head -n 20 file).
func fileArgsSkipValues(args []string, valued ...string) []string {
	var out []string
	for k := 1; k < len(args); k++ {
		a := args[k]
		if strings.HasPrefix(a, "-") {
			for _, v := range valued {
				if a == v {
					k++
				}
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

func hasFlagPrefix(args []string, prefix string) bool {
	for _, a := range args[1:] {
		if strings.HasPrefix(a, prefix) || a == "--in-place" || strings.HasPrefix(a, "--in-place=") {
			return true
		}
	}
	return false
}

// sedExprFiles returns a sed command's expression and file operands.
func sedExprFiles(args []string) (expr string, files []string) {
	haveExpr := false
	for k := 1; k < len(args); k++ {
		a := args[k]
		switch {
		case a == "-e" || a == "--expression" || a == "-f":
			if k+1 < len(args) {
				if expr != "" {
					expr += "; "
				}
				expr += args[k+1]
				haveExpr = true
				k++
			}
		case strings.HasPrefix(a, "-") && a != "-":
		case !haveExpr:
			expr, haveExpr = a, true
		default:
			files = append(files, a)
		}
	}
	return expr, files
}

// sedPrintRange returns the line range of "sed -n 'a,bp'", or "".
func sedPrintRange(args []string) string {
	if !hasFlagPrefix(args, "-n") {
		return ""
	}
	expr, _ := sedExprFiles(args)
	if m := sedRangeRe.FindStringSubmatch(strings.TrimSpace(expr)); m != nil {
		if m[2] == "" {
			return m[1]
		}
		return m[1] + "-" + m[2]
	}
	return ""
}

// headRange returns "1-N" for head -n N and "last N" for tail -n N.
func headRange(args []string, head bool) string {
	n := ""
	for k := 1; k < len(args); k++ {
		a := args[k]
		switch {
		case a == "-n" && k+1 < len(args):
			n = strings.TrimPrefix(args[k+1], "+")
			k++
		case strings.HasPrefix(a, "-n"):
			n = strings.TrimPrefix(a[2:], "+")
		case len(a) > 1 && a[0] == '-' && isDigits(a[1:]):
			n = a[1:]
		}
	}
	if n == "" {
		n = "10"
	}
	if !isDigits(n) {
		return ""
	}
	if head {
		return "1-" + n
	}
	return "last " + n
}

// grepOpts reads a grep/rg command line.
func grepOpts(c shellwords.Command) searchOpts {
	o := searchOpts{tool: c.Name()}
	recursive := o.tool == "rg" || o.tool == "ag" || o.tool == "ack"
	noName := false
	var rest []string
	for k := 1; k < len(c.Args); k++ {
		a := c.Args[k]
		switch {
		case a == "-e" || a == "--regexp":
			if k+1 < len(c.Args) {
				o.pattern = c.Args[k+1]
				k++
			}
		case a == "--include" || a == "--exclude" || a == "-A" || a == "-B" || a == "-C" || a == "-m" || a == "--max-count" || a == "-g" || a == "--glob" || a == "-t" || a == "--type" || a == "-f":
			if a == "-A" || a == "-B" || a == "-C" {
				o.context = true
			}
			k++
		case strings.HasPrefix(a, "--"):
			if a == "--files-with-matches" {
				o.filesOnly = true
			}
			if a == "--count" {
				o.counts = true
			}
			if a == "--recursive" {
				recursive = true
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			flags := a[1:]
			if strings.ContainsAny(flags, "rR") {
				recursive = true
			}
			if strings.ContainsAny(flags, "lL") {
				o.filesOnly = true
			}
			if strings.Contains(flags, "c") {
				o.counts = true
			}
			if strings.Contains(flags, "h") {
				noName = true
			}
			if strings.Contains(flags, "H") {
				recursive = true
			}
			if strings.ContainsAny(flags, "ABC") {
				o.context = true
			}
			if strings.ContainsAny(flags, "ABCm") && !isDigits(strings.TrimLeft(flags, "ABCmnirRlLchHwvEFPIos")) {
				// -A3 style carries its value; a bare -A takes the next arg.
				if last := flags[len(flags)-1]; last == 'A' || last == 'B' || last == 'C' || last == 'm' {
					k++
				}
			}
		default:
			rest = append(rest, a)
		}
	}
	if o.pattern == "" && len(rest) > 0 {
		o.pattern, rest = rest[0], rest[1:]
	}
	o.paths = rest
	o.multi = !noName && (recursive || len(rest) > 1)
	return o
}

// findOpts reads a find command line.
func findOpts(c shellwords.Command) searchOpts {
	o := searchOpts{tool: c.Name(), filesOnly: true}
	for k := 1; k < len(c.Args); k++ {
		a := c.Args[k]
		if strings.HasPrefix(a, "-") {
			switch a {
			case "-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-wholename":
				if k+1 < len(c.Args) {
					if o.pattern != "" {
						o.pattern += " "
					}
					o.pattern += c.Args[k+1]
					k++
				}
			case "-type", "-maxdepth", "-mindepth", "-newer", "-size", "-mtime", "-user", "-perm", "-exec", "-execdir":
				if a == "-exec" || a == "-execdir" {
					k = len(c.Args)
				} else {
					k++
				}
			}
			continue
		}
		if o.pattern == "" && len(o.paths) < 4 && c.Name() == "find" {
			o.paths = append(o.paths, a)
		} else if c.Name() != "find" && o.pattern == "" {
			o.pattern = a
		}
	}
	return o
}
