package main

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/tmc/langchaingo/tools"
)

// Limits of the tools' outputs, as real agent tools have.
const (
	maxReadBytes   = 6_000
	maxGrepMatches = 60
	maxVetBytes    = 6_000
	vetTimeout     = 2 * time.Minute
)

// skipDir reports directories the tools never enter.
func skipDir(name string) bool {
	switch name {
	case ".git", "vendor", "node_modules", "testdata", ".ci":
		return true
	}
	return strings.HasPrefix(name, ".") && name != "."
}

// inside resolves a path given by the model against root; it never leaves root.
func inside(root, p string) string {
	return filepath.Join(root, filepath.Clean("/"+strings.TrimSpace(p)))
}

// progress is called by every tool with one line about what it did.
type progress func(format string, args ...any)

// tool adapts a function to tools.Tool.
type tool struct {
	name, desc string
	call       func(ctx context.Context, input string) (string, error)
}

func (t tool) Name() string        { return t.name }
func (t tool) Description() string { return t.desc }
func (t tool) Call(ctx context.Context, input string) (string, error) {
	return t.call(ctx, input)
}

// newTools returns the agent's tools over root: read_file, list_dir, grep
// and go_vet.
func newTools(root string, say progress) []tools.Tool {
	return []tools.Tool{
		tool{"list_dir", "Lists a directory of the project with file sizes. Input: a directory path relative to the project root, such as \".\".",
			func(_ context.Context, in string) (string, error) {
				out, n := listDir(root, in)
				say("list_dir %s → %d entries", in, n)
				return out, nil
			}},
		tool{"grep", "Searches the project's text files for a regular expression (RE2 syntax) and returns file:line:text matches. Input: the expression.",
			func(_ context.Context, in string) (string, error) {
				out, n := grep(root, in)
				say("grep %q → %d matches", in, n)
				return out, nil
			}},
		tool{"read_file", fmt.Sprintf("Reads a text file of the project (the first %d bytes). Input: its path relative to the project root.", maxReadBytes),
			func(_ context.Context, in string) (string, error) {
				out, size := readFile(root, in)
				say("read_file %s → %d bytes", in, size)
				return out, nil
			}},
		tool{"go_vet", "Runs `go vet` on a package of the project and returns its report. Input: a package pattern such as \".\" or \"./middleware\".",
			func(ctx context.Context, in string) (string, error) {
				start := time.Now()
				out, ok := goVet(ctx, root, in)
				status := "ok"
				if !ok {
					status = "reported problems"
				}
				say("go_vet %s → %s (%.1fs)", in, status, time.Since(start).Seconds())
				return out, nil
			}},
	}
}

func listDir(root, in string) (string, int) {
	dir := inside(root, in)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "error: " + err.Error(), 0
	}
	var b strings.Builder
	n := 0
	for _, e := range ents {
		if e.IsDir() {
			if skipDir(e.Name()) {
				continue
			}
			fmt.Fprintf(&b, "%10s  %s/\n", "dir", e.Name())
		} else if info, err := e.Info(); err == nil {
			fmt.Fprintf(&b, "%10d  %s\n", info.Size(), e.Name())
		}
		n++
	}
	return b.String(), n
}

func grep(root, expr string) (string, int) {
	re, err := regexp.Compile(strings.TrimSpace(expr))
	if err != nil {
		return "error: invalid expression: " + err.Error(), 0
	}
	var b strings.Builder
	n := 0
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || n >= maxGrepMatches {
			return nil
		}
		if d.IsDir() {
			if p != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > 1<<20 || !textFile(d.Name()) {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return nil
		}
		defer f.Close()
		rel, _ := filepath.Rel(root, p)
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for line := 1; sc.Scan() && n < maxGrepMatches; line++ {
			if t := sc.Text(); re.MatchString(t) {
				if len(t) > 160 {
					t = t[:160] + "…"
				}
				fmt.Fprintf(&b, "%s:%d:%s\n", filepath.ToSlash(rel), line, t)
				n++
			}
		}
		return nil
	})
	if n == 0 {
		return "no matches", 0
	}
	if n >= maxGrepMatches {
		fmt.Fprintf(&b, "(stopped after %d matches)\n", maxGrepMatches)
	}
	return b.String(), n
}

func textFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".go", ".md", ".txt", ".mod", ".yaml", ".yml", ".json", ".toml", ".sh", ".py", ".js", ".ts", ".rs", ".c", ".h", ".java", ".rb":
		return true
	}
	return false
}

func readFile(root, in string) (string, int) {
	data, err := os.ReadFile(inside(root, in))
	if err != nil {
		return "error: " + err.Error(), 0
	}
	if len(data) > maxReadBytes {
		return string(data[:maxReadBytes]) + fmt.Sprintf("\n… (truncated: %d of %d bytes shown)\n", maxReadBytes, len(data)), len(data)
	}
	return string(data), len(data)
}

var pkgPattern = regexp.MustCompile(`^[A-Za-z0-9_./-]+$`)

func goVet(ctx context.Context, root, in string) (string, bool) {
	pkg := strings.TrimSpace(in)
	if pkg == "" {
		pkg = "."
	}
	if !pkgPattern.MatchString(pkg) || strings.HasPrefix(pkg, "-") || strings.Contains(pkg, "..") && pkg != "./..." {
		return fmt.Sprintf("error: %q is not a package pattern of this project", pkg), false
	}
	ctx, cancel := context.WithTimeout(ctx, vetTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "vet", pkg)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	text := strings.TrimSpace(string(out))
	if len(text) > maxVetBytes {
		text = text[:maxVetBytes] + "\n… (truncated)"
	}
	if err != nil {
		if text == "" {
			text = err.Error()
		}
		return "go vet " + pkg + " failed:\n" + text, false
	}
	if text == "" {
		text = "no issues found"
	}
	return "go vet " + pkg + ": " + text, true
}

// goFilesOf returns the non-test Go files listed in a list_dir output, by name.
func goFilesOf(listing string) []string {
	var out []string
	for _, l := range strings.Split(listing, "\n") {
		f := strings.Fields(l)
		if len(f) == 2 && strings.HasSuffix(f[1], ".go") && !strings.HasSuffix(f[1], "_test.go") {
			out = append(out, f[1])
		}
	}
	sort.Strings(out)
	return out
}
