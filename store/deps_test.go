package store_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const modulePath = "github.com/agentcompact/compact"

// storeLeaves are the packages of this module the store contract and its
// drivers may depend on, besides their own (store and below): the summary
// record they persist, the grammar of a ref, the bounded quoting of an id
// in an error text and the context-honouring wait of a retry (leaves that
// import nothing of this module).
var storeLeaves = map[string]bool{
	modulePath + "/summary/record":    true,
	modulePath + "/internal/refid":    true,
	modulePath + "/internal/idtext":   true,
	modulePath + "/internal/ctxsleep": true,
}

// deniedThirdParty are packages outside the module that only the engine's
// side pulls in (the prompt templates through package prompts); seeing one
// means a dependency on the engine came back by another road.
var deniedThirdParty = []string{"github.com/tmc/langchaingo/prompts", "github.com/nikolalohinski/gonja"}

// goListDeps returns the import paths of pkgs and of everything they
// import (not their tests), as `go list -deps -json` reports them. It skips
// the test when the go tool is not installed.
func goListDeps(t *testing.T, pkgs ...string) []string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go tool is not installed (%v): cannot list the dependencies", err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(goTool, append([]string{"list", "-deps", "-json=ImportPath"}, pkgs...)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var paths []string
	for dec := json.NewDecoder(&stdout); ; {
		var p struct{ ImportPath string }
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		paths = append(paths, p.ImportPath)
	}
	return paths
}

// TestStoreImportsNoEngine fails when the store contract, a driver or the
// drivers' conformance suite (storetest) depends on a package of this module other than the record leaves: not
// the engine, the tokenizer, the extractors, the prompts nor the summarizer
// contract. A new dependency must be a leaf added to storeLeaves on purpose.
func TestStoreImportsNoEngine(t *testing.T) {
	roots := []string{modulePath + "/store", modulePath + "/store/pgstore", modulePath + "/store/sqlitestore", modulePath + "/store/storetest"}
	deps := goListDeps(t, roots...)
	var bad []string
	seen := map[string]bool{}
	for _, p := range deps {
		for _, d := range deniedThirdParty {
			if p == d || strings.HasPrefix(p, d+"/") {
				bad = append(bad, p)
			}
		}
		if p != modulePath && !strings.HasPrefix(p, modulePath+"/") {
			continue
		}
		seen[p] = true
		if p == modulePath+"/store" || strings.HasPrefix(p, modulePath+"/store/") || storeLeaves[p] {
			continue
		}
		bad = append(bad, p)
	}
	for _, r := range append(roots, modulePath+"/summary/record") {
		if !seen[r] {
			t.Fatalf("go list did not report %s: the check would see nothing", r)
		}
	}
	if len(bad) > 0 {
		t.Errorf("the store contract depends on %v; allowed of this module: store/..., %v", bad, storeLeaves)
	}
}

// TestRecordIsLeaf fails when the summary record's package imports any
// other package of this module.
func TestRecordIsLeaf(t *testing.T) {
	deps := goListDeps(t, modulePath+"/summary/record")
	if len(deps) == 0 || deps[len(deps)-1] != modulePath+"/summary/record" {
		t.Fatalf("go list did not end with the record's package: %v", deps)
	}
	for _, p := range deps {
		if (p == modulePath || strings.HasPrefix(p, modulePath+"/")) && p != modulePath+"/summary/record" {
			t.Errorf("summary/record imports %s; it must import nothing of this module", p)
		}
	}
}
