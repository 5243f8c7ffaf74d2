//go:build ignore

// Command exportcount counts the exported names of one package directory:
// top-level funcs, types, consts and vars, plus the exported methods of
// exported types (fields not counted); test files are skipped. A second
// argument lists the names. It is how issue 32 counts the root package's
// names (187 at 1294321, target at most 160):
//
//	go run .ci/exportcount.go .
//	go run .ci/exportcount.go . list
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
)

func main() {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, os.Args[1], func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		panic(err)
	}
	top, methods := 0, 0
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if !d.Name.IsExported() {
						continue
					}
					if d.Recv == nil {
						top++
						if len(os.Args) > 2 {
							fmt.Println("func", d.Name.Name)
						}
						continue
					}
					t := d.Recv.List[0].Type
					if s, ok := t.(*ast.StarExpr); ok {
						t = s.X
					}
					if id, ok := t.(*ast.Ident); ok && id.IsExported() {
						methods++
						if len(os.Args) > 2 {
							fmt.Println("method", id.Name+"."+d.Name.Name)
						}
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							if s.Name.IsExported() {
								top++
								if len(os.Args) > 2 {
									fmt.Println("type", s.Name.Name)
								}
							}
						case *ast.ValueSpec:
							for _, n := range s.Names {
								if n.IsExported() {
									top++
									if len(os.Args) > 2 {
										fmt.Println("value", n.Name)
									}
								}
							}
						}
					}
				}
			}
		}
	}
	fmt.Printf("top-level %d, methods %d, total %d\n", top, methods, top+methods)
}
