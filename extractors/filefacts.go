package extractors

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// langByExt maps file extensions to language names.
var langByExt = map[string]string{
	".go": "go", ".py": "python", ".pyi": "python", ".js": "javascript", ".mjs": "javascript",
	".cjs": "javascript", ".jsx": "javascript", ".ts": "typescript", ".tsx": "typescript",
	".mts": "typescript", ".rb": "ruby", ".rs": "rust", ".java": "java", ".kt": "kotlin",
	".c": "c", ".h": "c", ".cc": "c++", ".cpp": "c++", ".cxx": "c++", ".hpp": "c++",
	".cs": "c#", ".php": "php", ".swift": "swift", ".scala": "scala", ".sh": "shell",
	".bash": "shell", ".zsh": "shell", ".md": "markdown", ".rst": "rst", ".txt": "text",
	".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".ini": "ini",
	".cfg": "ini", ".html": "html", ".htm": "html", ".css": "css", ".sql": "sql",
	".xml": "xml", ".csv": "csv", ".lua": "lua", ".r": "r", ".jl": "julia", ".tex": "tex",
	".proto": "protobuf", ".mod": "go.mod", ".lock": "lock", ".env": "env", ".pyx": "cython",
}

// languageOf returns the language of a file by its name, "" when unknown.
func languageOf(p string) string {
	base := path.Base(p)
	switch base {
	case "Makefile", "makefile", "GNUmakefile":
		return "make"
	case "Dockerfile":
		return "dockerfile"
	case "go.mod":
		return "go.mod"
	}
	return langByExt[strings.ToLower(path.Ext(base))]
}

var (
	goDefRe = regexp.MustCompile(`^(?:func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)|type\s+([A-Za-z_]\w*)|(?:var|const)\s+([A-Za-z_]\w*))`)
	jsDefRe = regexp.MustCompile(`^(\s*)(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?\s+([A-Za-z_$][\w$]*)|class\s+([A-Za-z_$][\w$]*)|(?:interface|enum|type)\s+([A-Za-z_$][\w$]*)|(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=)`)
	// cDefRe matches C-like function definitions (also decompiler output).
	cDefRe    = regexp.MustCompile(`^[A-Za-z_][\w\s\*<>:,]*?[\s\*]([A-Za-z_][\w:]*)\s*\([^;]*\)\s*\{?\s*$`)
	rustRe    = regexp.MustCompile(`^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:fn|struct|enum|trait|mod|impl)\s+([A-Za-z_]\w*)`)
	javaRe    = regexp.MustCompile(`^(\s*)(?:(?:public|private|protected|static|final|abstract|sealed|data|open|internal)\s+)*(?:class|interface|enum|record|object)\s+([A-Za-z_]\w*)`)
	sweHead   = regexp.MustCompile(`^\[File: ([^\]]+?) \((\d+) lines total\)\]`)
	moreAbove = regexp.MustCompile(`^\((\d+) more lines above\)`)
)

// maxDefines bounds the definitions listed in a fact.
const maxDefines = 8

// fileFacts are what a file's content tells.
type fileFacts struct {
	path       string
	lang       string
	lines      int // lines shown
	first      int // first line number shown (0: unknown)
	last       int
	total      int // total lines of the file when the tool says (SWE-agent)
	defines    []string
	moreDefs   int
	imports    int
	hasContent bool
}

// analyzeFile reads a file's content as printed by a tool (possibly with
// line numbers) in one pass.
func analyzeFile(p, content string) fileFacts {
	f := fileFacts{path: p, lang: languageOf(p)}
	if h := firstLine(content); h != "" {
		if m := sweHead.FindStringSubmatch(h); m != nil {
			if f.path == "" {
				f.path = m[1]
			}
			f.total, _ = strconv.Atoi(m[2])
			if f.lang == "" {
				f.lang = languageOf(m[1])
			}
		}
	}
	if f.lang == "" {
		f.lang = sniffLanguage(content)
	}
	a := fileScan{f: &f, syntax: syntaxOf(f.lang), seen: map[string]bool{}, numbered: -1}
	for i, rest := 0, content; rest != ""; i++ { // eachLine, without a call through a func value per line
		var line string
		line, rest = cutLine(rest)
		a.line(i, line)
	}
	defs := append(a.topDefs, a.innerDefs...)
	if len(defs) > maxDefines {
		f.moreDefs = len(defs) - maxDefines
		defs = defs[:maxDefines]
	}
	if len(defs) > 0 {
		f.defines = defs
	}
	return f
}

// fileScan is the state of analyzeFile's pass over the lines.
type fileScan struct {
	f                  *fileFacts
	topDefs, innerDefs []string // definitions at the top level and indented
	seen               map[string]bool
	syntax             syntax
	inGoImport         bool // inside a Go "import (" block
	numbered           int  // line numbers: -1 unknown, 0 none, else lineNumber's style
}

// line reads line i of the content.
func (a *fileScan) line(i int, line string) {
	if len(line) > 4096 {
		line = line[:4096]
	}
	line = strings.TrimRight(line, "\r")
	if i == 0 && sweHead.MatchString(line) {
		return
	}
	if strings.HasPrefix(line, "(") && moreAbove.MatchString(line) {
		return
	}
	code := line
	if a.numbered != 0 {
		code = a.code(line)
	}
	a.f.lines++
	if strings.TrimSpace(code) != "" {
		a.f.hasContent = true
	}
	if a.syntax == syntaxNone {
		return
	}
	if t := strings.TrimLeft(code, " \t"); t != "" {
		a.definitions(code, t)
	}
}

// code returns line without its line number, and records the numbers
// seen; the first numbered line fixes the numbering style. It is not
// called once the content is known to have no line numbers.
func (a *fileScan) code(line string) string {
	n, rest, style := lineNumber(line)
	switch {
	case style != 0 && (a.numbered == -1 || a.numbered == style):
		a.numbered = style
		if a.f.first == 0 {
			a.f.first = n
		}
		a.f.last = n
		return rest
	case a.numbered == -1 && strings.TrimSpace(line) != "":
		a.numbered = 0
	}
	return line
}

// syntax is how a language's definitions and imports are read.
type syntax uint8

// The syntaxes analyzeFile reads.
const (
	syntaxNone syntax = iota
	syntaxPython
	syntaxGo
	syntaxJS
	syntaxRust
	syntaxJava
	syntaxC
)

// syntaxOf returns the syntax of a language (languageOf's names).
func syntaxOf(lang string) syntax {
	switch lang {
	case "python", "cython":
		return syntaxPython
	case "go":
		return syntaxGo
	case "javascript", "typescript":
		return syntaxJS
	case "rust":
		return syntaxRust
	case "java", "kotlin", "scala", "c#":
		return syntaxJava
	case "c", "c++":
		return syntaxC
	}
	return syntaxNone
}

// addDef records a definition, once.
func (a *fileScan) addDef(name string, top bool) {
	if name == "" || a.seen[name] {
		return
	}
	a.seen[name] = true
	if top {
		a.topDefs = append(a.topDefs, name)
	} else {
		a.innerDefs = append(a.innerDefs, name)
	}
}

// definitions reads the definitions and imports of a line of code, t
// being code without its indentation, by the file's language.
func (a *fileScan) definitions(code, t string) {
	f := a.f
	switch a.syntax {
	case syntaxPython:
		if name := pyDefName(t); name != "" {
			a.addDef(name, code == t)
		} else if code == t && (strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "from ")) {
			f.imports++
		}
	case syntaxGo:
		a.goLine(code, t)
	case syntaxJS:
		if code == t && strings.HasPrefix(t, "import ") || strings.Contains(t, "require(") && (strings.HasPrefix(t, "const ") || strings.HasPrefix(t, "var ") || strings.HasPrefix(t, "let ")) {
			f.imports++
		}
		if m := jsDefRe.FindStringSubmatch(code); m != nil && !strings.Contains(t, "require(") {
			a.addDef(m[2]+m[3]+m[4]+m[5], m[1] == "")
		}
	case syntaxRust:
		if strings.HasPrefix(t, "use ") && code == t {
			f.imports++
		} else if m := rustRe.FindStringSubmatch(code); m != nil {
			a.addDef(m[2], m[1] == "")
		}
	case syntaxJava:
		if code == t && (strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "using ")) {
			f.imports++
		} else if m := javaRe.FindStringSubmatch(code); m != nil {
			a.addDef(m[2], m[1] == "")
		}
	case syntaxC:
		if strings.HasPrefix(t, "#include") {
			f.imports++
		} else if code == t && strings.Contains(t, "(") && !strings.HasSuffix(t, ";") {
			if m := cDefRe.FindStringSubmatch(t); m != nil && !cKeyword[m[1]] {
				a.addDef(m[1], true)
			}
		}
	}
}

// goLine reads a line of Go: imports (single and in blocks) and top-level
// func, type, var and const definitions.
func (a *fileScan) goLine(code, t string) {
	if a.inGoImport {
		if strings.HasPrefix(t, ")") {
			a.inGoImport = false
		} else if strings.Contains(t, `"`) {
			a.f.imports++
		}
		return
	}
	if code != t {
		return
	}
	switch {
	case strings.HasPrefix(t, "import ("):
		a.inGoImport = true
	case strings.HasPrefix(t, "import "):
		a.f.imports++
	case strings.HasPrefix(t, "func ") || strings.HasPrefix(t, "type ") || strings.HasPrefix(t, "var ") || strings.HasPrefix(t, "const "):
		if m := goDefRe.FindStringSubmatch(t); m != nil {
			a.addDef(m[1]+m[2]+m[3], true)
		}
	}
}

var cKeyword = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "return": true, "sizeof": true, "do": true, "else": true}

// sniffLanguage guesses a language from content when the path says nothing.
func sniffLanguage(content string) string {
	head := content
	if len(head) > 4096 {
		head = head[:4096]
	}
	switch {
	case strings.Contains(head, "\npackage ") || strings.HasPrefix(head, "package ") && strings.Contains(head, "func "):
		return "go"
	case strings.Contains(head, "def ") || strings.Contains(head, "\nimport ") || strings.HasPrefix(head, "import ") || strings.Contains(head, "\nfrom ") || strings.HasPrefix(head, "from "):
		return "python"
	case strings.Contains(head, "function ") || strings.Contains(head, "=> {") || strings.Contains(head, "require("):
		return "javascript"
	case strings.Contains(head, "#include") || strings.Contains(head, "void ") || strings.Contains(head, "undefined8 "):
		return "c"
	}
	return ""
}

// facts renders the file facts: File, Lines, Type, Defines, Imports.
func (f fileFacts) facts() []string {
	var out []string
	if f.path != "" {
		out = append(out, "File: "+f.path)
	}
	switch {
	case f.first > 0 && f.last >= f.first:
		l := fmt.Sprintf("Lines: %d-%d", f.first, f.last)
		if f.total > 0 {
			l += fmt.Sprintf(" of %d", f.total)
		}
		out = append(out, l)
	case f.total > 0:
		out = append(out, fmt.Sprintf("Lines: %d", f.total))
	default:
		out = append(out, fmt.Sprintf("Lines: %d", f.lines))
	}
	if f.lang != "" {
		out = append(out, "Type: "+f.lang)
	}
	if len(f.defines) > 0 {
		d := "Defines: " + strings.Join(f.defines, ", ")
		if f.moreDefs > 0 {
			d += fmt.Sprintf(", +%d more", f.moreDefs)
		}
		out = append(out, d)
	}
	if f.imports > 0 {
		out = append(out, fmt.Sprintf("Imports: %d", f.imports))
	}
	return out
}

// lineNumber parses a line number prefix: style 1 is nl -ba / cat -n
// ("   12\tcode"), style 2 is SWE-agent's ("12:code"); 0 when none.
func lineNumber(line string) (n int, rest string, style int) {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	lead := i
	j := i
	for j < len(line) && line[j] >= '0' && line[j] <= '9' && j-i < 9 {
		n = n*10 + int(line[j]-'0')
		j++
	}
	if j == i || j >= len(line) {
		return 0, line, 0
	}
	switch {
	case line[j] == '\t':
		return n, line[j+1:], 1
	case line[j] == ':' && lead == 0:
		return n, line[j+1:], 2
	}
	return 0, line, 0
}

// pyDefName returns the name a Python def/class line (indentation removed)
// defines, or "".
func pyDefName(t string) string {
	t = strings.TrimPrefix(t, "async ")
	switch {
	case strings.HasPrefix(t, "def "):
		t = t[4:]
	case strings.HasPrefix(t, "class "):
		t = t[6:]
	default:
		return ""
	}
	t = strings.TrimLeft(t, " ")
	n := 0
	for n < len(t) && (t[n] == '_' || t[n] >= 'a' && t[n] <= 'z' || t[n] >= 'A' && t[n] <= 'Z' || n > 0 && t[n] >= '0' && t[n] <= '9') {
		n++
	}
	return t[:n]
}
