package otelcompact_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCoreDoesNotImportOpenTelemetry: only this package links
// OpenTelemetry; the engine and the adapters do not.
func TestCoreDoesNotImportOpenTelemetry(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH; run `go list -deps . ./memory ./middleware` by hand")
	}
	out, err := exec.Command(goBin, "list", "-deps", "..", "../memory", "../middleware", "../recall").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 20 || !strings.Contains(string(out), "github.com/tmc/langchaingo/llms") {
		t.Fatalf("go list -deps printed too little to be trusted:\n%s", out)
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "go.opentelemetry.io/") {
			t.Errorf("a core package depends on %s", d)
		}
	}
}
