package extractors

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestScanErrors(t *testing.T) {
	out := "ok\nTraceback (most recent call last):\n  File \"/a/b/c/d/e.py\", line 7, in f\n    g()\nKeyError: 'x'\n\nDuring handling...\nTraceback (most recent call last):\n  File \"m.py\", line 3, in <module>\ndjango.core.exceptions.FieldError: Cannot resolve\nE   AssertionError: assert 1 == 2\npanic: runtime error: index out of range\n    raise ValueError(\"in code\")\n"
	excs, first := scanErrors(out)
	names := []string{}
	for _, e := range excs {
		names = append(names, e.name)
	}
	assert.Equal(t, []string{"KeyError", "django.core.exceptions.FieldError", "AssertionError", "panic"}, names)
	assert.Equal(t, "KeyError at .../c/d/e.py:7: 'x'", excs[0].String())
	assert.Equal(t, "django.core.exceptions.FieldError at m.py:3: Cannot resolve", excs[1].String())
	assert.Equal(t, "Traceback (most recent call last):", first)
	_, first = scanErrors("all good\nerror: cannot open x\nfatal: later\n")
	assert.Equal(t, "error: cannot open x", first)
	excs, first = scanErrors("def f():\n    raise ValueError('x')\n")
	assert.Empty(t, excs)
	assert.Empty(t, first)
}
