package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/opentoolgen/opentoolgen/gen"
)

// commandOptions returns what the main written into cmdDir (-cmd) needs: its
// name (cmdDir's base name, as go build names the executable) and the import
// path of the package written into out (-o), from the go.mod of the module
// that holds both.
func commandOptions(out, cmdDir string) (*gen.Command, error) {
	absOut, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	absCmd, err := filepath.Abs(cmdDir)
	if err != nil {
		return nil, err
	}
	if absOut == absCmd {
		return nil, &usageError{fmt.Sprintf("-cmd %s: the main needs a directory of its own, not -o's", cmdDir)}
	}
	outRoot, modPath, err := findModule(absOut)
	if err != nil {
		return nil, err
	}
	if outRoot == "" {
		return nil, &usageError{fmt.Sprintf("-cmd: no go.mod in %s or above it: the main imports the generated package by its import path, which the enclosing module gives (run go mod init there first)", out)}
	}
	cmdRoot, _, err := findModule(absCmd)
	if err != nil {
		return nil, err
	}
	if cmdRoot != outRoot {
		where := "in no module"
		if cmdRoot != "" {
			where = "in the module of " + filepath.Join(cmdRoot, "go.mod")
		}
		return nil, &usageError{fmt.Sprintf("-cmd %s is %s, -o %s in the module of %s: they must be in one module", cmdDir, where, out, filepath.Join(outRoot, "go.mod"))}
	}
	rel, err := filepath.Rel(outRoot, absOut)
	if err != nil {
		return nil, err
	}
	importPath := modPath
	if rel != "." {
		importPath += "/" + filepath.ToSlash(rel)
	}
	return &gen.Command{Name: filepath.Base(absCmd), ImportPath: importPath}, nil
}

// findModule returns the directory of the go.mod that holds dir (which need
// not exist yet) and its module path; "" when there is none.
func findModule(dir string) (root, modPath string, err error) {
	for d := dir; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			p, perr := modulePath(data)
			if perr != nil {
				return "", "", fmt.Errorf("%s: %v", filepath.Join(d, "go.mod"), perr)
			}
			return d, p, nil
		}
		if !os.IsNotExist(err) {
			return "", "", err
		}
		if filepath.Dir(d) == d {
			return "", "", nil
		}
	}
}

// modulePath returns the path of the module directive of a go.mod file.
func modulePath(data []byte) (string, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		rest, ok := strings.CutPrefix(line, "module")
		if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t' && rest[0] != '"') {
			continue
		}
		if i := strings.Index(rest, "//"); i >= 0 {
			rest = rest[:i]
		}
		p := strings.TrimSpace(rest)
		if strings.HasPrefix(p, `"`) || strings.HasPrefix(p, "`") {
			u, err := strconv.Unquote(p)
			if err != nil {
				return "", fmt.Errorf("the module directive %s is not a quoted path", line)
			}
			p = u
		}
		if p == "" {
			break
		}
		return p, nil
	}
	return "", fmt.Errorf("no module directive")
}
