package callpaths_test

import (
	"fmt"

	"github.com/agentcompact/compact/internal/callpaths"
)

func ExampleCommand() {
	fmt.Println(callpaths.Command("cat <<'EOF' > repro.py\nimport a/b\nEOF\npython3 repro.py && grep -n 'x/y' src/lib/util.py | head"))
	// Output: [repro.py repro.py src/lib/util.py]
}

func ExampleCall() {
	fmt.Println(callpaths.Call("open", `{"path": "./lib/x.py"}`))
	fmt.Println(callpaths.Call("bash", `{"command": "python -m pytest tests/test_a.py::test_b -q"}`))
	// Output:
	// [lib/x.py]
	// [tests/test_a.py]
}

func ExampleCall_nested() {
	fmt.Println(callpaths.Call("ViewCode", `{"files": [{"file_path": "tests/model_fields/test_foreignkey.py", "start_line": 1}]}`))
	// Output: [tests/model_fields/test_foreignkey.py]
}

func ExampleCreated() {
	fmt.Println(callpaths.Created("str_replace_editor", `{"command": "create", "path": "tests/test_new.py", "file_text": "def test(): pass"}`))
	fmt.Println(callpaths.Created("bash", `{"command": "mkdir -p app && touch app/__init__.py && cat <<'EOF' > repro.py\nimport app\nEOF"}`))
	// Output:
	// [{tests/test_new.py false}]
	// [{app true} {app/__init__.py true} {repro.py true}]
}
