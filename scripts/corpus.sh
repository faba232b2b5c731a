#!/usr/bin/env bash
# corpus.sh: opentoolgen next to oapi-codegen and ogen on a corpus of public
# OpenAPI documents (3.0, 3.1 and Swagger 2.0; JSON and YAML): for each
# document and each generator, does the output generate and compile?
# Opt-in and slow (an hour or more on two cores the first time); it needs the
# Go module proxy. Not run by .ci/run or test.sh.
#
#	scripts/corpus.sh                        # every document, every generator
#	TOOLS=opentoolgen scripts/corpus.sh      # only some generators
#	scripts/corpus.sh ogen:examples/2ch.yml  # only the documents named (ids as in the table)
#	CORPUS_DIR=/tmp/corpus JOBS=2 LIMIT=600 scripts/corpus.sh
#
# The documents come from Go modules fetched with `go mod download` and are
# read from the module cache; nothing is copied into this repository. Which
# files are taken is the list below: complete API descriptions (a document
# with an info object and paths, or webhooks, that a user would hand to a
# generator), not the fragments other files reference, not the documents a
# module keeps to be refused (ogen's _testdata/negative, libopenapi's
# badref-*), not ones whose $refs need the network. What is left out of a
# folder the list otherwise takes is named with its reason.
#
# The peers are installed as in scripts/bench-openapi.sh: `go install
# …@version` into a scratch GOBIN; ogen runs with ignore_not_implemented:
# ["all"] and allow_remote: true (without it ogen reads no file a $ref names),
# oapi-codegen with -generate types,client. Each output gets a
# scratch module (a replace directive to this checkout; the peers' runtime
# modules required up front) and is built with `go build ./...`; ours is also
# vetted. Each step has a time limit (LIMIT seconds, default 600). A result is
# one of ✓ (generated and compiled), ✗ gen (generation failed), ✗ build (build
# or, for ours, vet failed), ✗ timeout.
#
# Results are kept in the work directory (CORPUS_DIR, default
# ~/.cache/opentoolgen-corpus), one file per document and generator; a rerun
# only does what is missing. Ours is keyed by a hash of the generator binary
# and of runtime/ and internal/, so a change to the checkout redoes it; the
# peers' are keyed by their versions. Output: a Markdown table, the share per
# generator and the documents a peer handles that we do not, on stdout and in
# $CORPUS_DIR/report.md. JOBS (default 2) steps run at once.
set -euo pipefail

oapi_version=v2.8.2
ogen_version=v1.14.0
kin_version=v0.152.0
libopenapi_version=v0.42.4
spec_version=v1.0.1

# The corpus: MODULE-KEY PATH (relative to the module's directory) and, where
# the document's $refs leave its directory tree, the directory (relative to the
# document's) that opentoolgen is told to read with -allow-ref-dir: it refuses
# such $refs otherwise, and says so.
corpus() {
	# ogen: _testdata/examples (public APIs and AutoRest's and Redoc's test
	# documents) and _testdata/positive (documents ogen must accept).
	# Left out: _testdata/negative (made to be refused);
	# positive/file_reference_external/external.yml (a fragment that
	# positive/file_reference.yml references); _testdata/location (ogen's
	# fixtures for error positions: two copies of one small document, taken
	# once as location/location_spec.json).
	for f in 2ch.yml api.github.com.json ent.json firecracker.json gotd_bot_api.json k8s.json manga.json \
		oauth2-scopes-and-or.yml openai.yml petstore-expanded.yml petstore-oauth2.yml petstore.yml \
		pokemon-api.json superset.json swagger-petstore.yml techempower.json telegram_bot_api.json tinkoff.json \
		autorest/ApiManagementClient-openapi.json autorest/additionalProperties.json autorest/complex-model.json \
		autorest/extensible-enums-swagger.json autorest/header.json autorest/lro.json autorest/luis.json \
		autorest/storage.json autorest/url-multi-collectionFormat.json autorest/xms-error-responses.json \
		redoc/callback.json redoc/discriminator.json redoc/oneOfHoist.json redoc/oneOfTitles.json \
		redoc/pathItems.json redoc/schemaDefinition.json redoc/siblingRefDescription.json; do
		echo "ogen _testdata/examples/$f"
	done
	for f in additionalPropertiesPatternProperties.yml allOf.yml anyOf.json client_options.json \
		content_header_response.json convenient_errors/errors.json convenient_errors/same_schema.json \
		custom_formats.json discriminator_mapping.json enum_naming.yml ex_route_params.json file_reference.yml \
		form.json format_gen.json http_requests.json http_responses.json issue1161.json issue1182.yaml \
		issue1220.yaml issue1255.yaml naming_extensions.json parameters.json property_naming.json \
		property_ref.json query_api_key.json quoted_field_name.json referenced_pathItem.json sample.json \
		security.json servers.json single_endpoint.json time_extension.yml unnamed_response_validation.json \
		webhooks.json; do
		echo "ogen _testdata/positive/$f"
	done
	echo "ogen _testdata/location/location_spec.json"
	# kin-openapi: the test documents that describe an API with operations.
	# Left out: the many fragments and single-purpose files under
	# openapi3/testdata (schemas, parameters, paths without info, *.internalized.yml
	# outputs of its own tests), issue235.spec0-typo.yml (a deliberate typo),
	# openapi3/testdata/issue796.yml's companions, and documents whose only
	# content is components.
	for f in openapi2/testdata/swagger.json openapi3/testdata/issue570.json openapi3/testdata/issue423.k8s.swagger.json \
		openapi3/testdata/issue796.yml openapi3/testdata/lxkns.yaml openapi3/testdata/oai_v3_stoplight.json \
		openapi3/testdata/link-example.yaml openapi3/testdata/callbacks.yml openapi3/testdata/example_refs.yml \
		openapi3/testdata/discriminator.yml openapi3/testdata/schema31refs.yml openapi3/testdata/Test_param_override.yml \
		openapi3/testdata/refsToRoot/openapi.yml openapi3/testdata/recursiveRef/openapi.yml \
		openapi3/testdata/303bis/service.yaml \
		openapi3filter/testdata/fixtures/petstore.json openapi3filter/testdata/petstore.yaml; do
		echo "kin $f"
	done
	echo "kin openapi3/testdata/relativeDocsUseDocumentPath/openapi/openapi.yml .."
	# oapi-codegen: the documents its module ships (its other test documents
	# are in separate modules). Left out: remote-external-reference.yaml
	# (its $ref needs the network).
	for f in pkg/codegen/test_spec.yaml pkg/codegen/test_specs/bodyless-response-default.yaml \
		pkg/codegen/test_specs/x-go-type-import-pet.yaml pkg/codegen/test_specs/x-go-type-skip-optional-pointer.yaml; do
		echo "oapi $f"
	done
	# libopenapi: its public API documents and the complete examples of its
	# generators. Left out: badref-*/petstorev2-badref.json (broken on
	# purpose), petstorev2-complete.yaml (its /ref path names a section marked
	# "this is illegal"), stripe-old.yaml and *-modified.* (older or edited
	# copies of documents taken), digitalocean.yaml and redocly-starter.yaml
	# (their $refs name files the module does not ship), the small a/b/c/first/second/third files and the
	# folders of index and bundler tests (fragments and reference tests).
	for f in test_specs/asana.yaml test_specs/stripe.yaml test_specs/docusignv3.1.json test_specs/k8s.json \
		test_specs/xsoar.json test_specs/petstorev2.json test_specs/petstorev3.json \
		test_specs/burgershop.openapi.yaml test_specs/all-the-components.yaml \
		test_specs/vendor-extensions-test.yaml generator/sdk/gosdk/testdata/people-match.yaml \
		generator/golang/testdata/train-travel.yaml generator/typescript/testdata/features.yaml; do
		echo "libopenapi $f"
	done
	# go-openapi/spec: Swagger 2.0 documents of public APIs from its test data.
	# Left out: expansion/ and more_circulars/ reference tests, missing*/invalid*
	# refs (broken on purpose), azure/network.json (definitions only).
	for f in testdata/bugs/1614/gitea.json testdata/more_circulars/bitbucket.json testdata/expansion/clickmeter.yaml \
		testdata/bugs/1621/fixture-1621.yaml testdata/bugs/957/fixture-957.json testdata/bugs/69/dapperbox.json \
		testdata/expansion/petstore2.0.json testdata/expansion/all-the-things.json testdata/specs/todos.json \
		testdata/azure/applicationGateway.json testdata/azure/loadBalancer.json testdata/azure/networkWatcher.json \
		testdata/azure/virtualNetwork.json testdata/azure/publicIpAddress.json; do
		echo "spec $f"
	done
}

module_of() { # KEY: module@version
	case $1 in
	ogen) echo "github.com/ogen-go/ogen@$ogen_version" ;;
	kin) echo "github.com/getkin/kin-openapi@$kin_version" ;;
	oapi) echo "github.com/oapi-codegen/oapi-codegen/v2@$oapi_version" ;;
	libopenapi) echo "github.com/pb33f/libopenapi@$libopenapi_version" ;;
	spec) echo "github.com/go-openapi/spec@$spec_version" ;;
	esac
}

short_path() { # KEY PATH: the id of a document in the table
	local p=$2
	case $1 in
	ogen) p=${p#_testdata/} ;;
	kin) p=${p#openapi3/testdata/} ;;
	oapi) p=${p#pkg/codegen/} ;;
	libopenapi) p=${p#test_specs/} ;;
	spec) p=${p#testdata/} ;;
	esac
	echo "$1:$p"
}

# one TOOL DOC ID OUTFILE REFDIR: generate and build one document with one
# tool; writes "STATUS<TAB>REASON" to OUTFILE. REFDIR: see corpus, - for none.
one() {
	local tool=$1 doc=$2 id=$3 out=$4 refdir=$5
	local allow=()
	[ "$refdir" = - ] || allow=(-allow-ref-dir "$(dirname "$doc")/$refdir")
	local dir=$work/out/$tool/${id//[:\/]/_}
	rm -rf "$dir" && mkdir -p "$dir/api"
	gomod "$dir" "$tool"
	local status=ok reason= rc=0
	case $tool in
	opentoolgen) timeout "$limit" "$GOBIN/opentoolgen" "${allow[@]}" -o "$dir/api" -pkg api "$doc" >"$dir/gen.log" 2>&1 || rc=$? ;;
	oapi-codegen) timeout "$limit" "$GOBIN/oapi-codegen" -generate types,client -package api -o "$dir/api/api.gen.go" "$doc" >"$dir/gen.log" 2>&1 || rc=$? ;;
	ogen)
		printf 'parser:\n  allow_remote: true\ngenerator:\n  ignore_not_implemented: ["all"]\n' >"$dir/ogen.yml"
		timeout "$limit" "$GOBIN/ogen" -config "$dir/ogen.yml" -target "$dir/api" -package api -clean "$doc" >"$dir/gen.log" 2>&1 || rc=$?
		;;
	esac
	if [ "$rc" = 124 ]; then
		status=timeout reason="generation over ${limit}s"
	elif [ "$rc" != 0 ] || ! ls "$dir"/api/*.go >/dev/null 2>&1; then
		status=gen reason=$(first_line "$dir/gen.log" "$(dirname "$doc")/")
	elif [ "$tool" = opentoolgen ] && [ -s "$work/res/builds/$(outkey "$dir")" ]; then
		IFS=$'\t' read -r status reason <"$work/res/builds/$(outkey "$dir")"
	else
		(cd "$dir" && timeout "$limit" go mod tidy >"$dir/tidy.log" 2>&1) || true
		rc=0
		(cd "$dir" && timeout "$limit" go build ./... >"$dir/build.log" 2>&1) || rc=$?
		if [ "$rc" = 124 ]; then
			status=timeout reason="go build over ${limit}s"
		elif [ "$rc" != 0 ]; then
			status=build reason=$(first_line "$dir/build.log" "")
		elif [ "$tool" = opentoolgen ]; then
			(cd "$dir" && timeout "$limit" go vet ./... >"$dir/vet.log" 2>&1) || rc=$?
			if [ "$rc" = 124 ]; then
				status=timeout reason="go vet over ${limit}s"
			elif [ "$rc" != 0 ]; then
				status=build reason="vet: $(first_line "$dir/vet.log" "")"
			fi
		fi
	fi
	if [ "$tool" = opentoolgen ] && [ "$status" != gen ] && [ "$status" != timeout ]; then
		mkdir -p "$work/res/builds"
		printf '%s\t%s\n' "$status" "$reason" >"$work/res/builds/$(outkey "$dir")"
	fi
	# Keep the output of failures only (ogen's output of large documents is
	# hundreds of megabytes).
	[ "$status" = ok ] && rm -rf "$dir"
	printf '%s\t%s\n' "$status" "$reason" >"$out.tmp" && mv "$out.tmp" "$out"
}

# outkey DIR: the key of ours's build result: the generated code and the
# runtime it builds on. A change to the generator that leaves a document's
# output as it was does not build it again.
outkey() {
	(
		cat "$1"/api/*.go
		echo "$rt_key"
	) | sha256sum | cut -c 1-16
}

# first_line FILE PREFIX: the first telling line of a log, PREFIX removed,
# shortened, made safe for a table cell.
first_line() {
	local line lines
	# Not: go's progress lines, ogen's header and stack frames.
	lines=$(grep -v -E '^(#|go: |[[:space:]]*$|generation failed:$|(INFO|WARN|DEBUG)[[:space:]]|[[:space:]]+[a-z]+\.[A-Za-z(]|[[:space:]]+/.*\.go:[0-9]+$)' "$1" || true)
	line=$(grep -m 1 -E ' -> ' <<<"$lines" || grep -m 1 -E '\.go:[0-9]+:[0-9]+|rror|:[0-9]+:[0-9]+|fail|invalid|unsupported|not ' <<<"$lines" ||
		head -n 1 <<<"$lines" || true)
	[ -n "$line" ] || line="no message"
	# oapi-codegen: the loader's message is on the next line; the wrappers
	# of its errors say less than what they wrap.
	[[ $line == "error loading swagger spec in "* ]] && line=$(grep -m 1 '^: ' <<<"$lines" | cut -c 3-)
	line=$(sed -E ':a; s/^(error (generating code|creating operation definitions|describing global parameters for [^ ]+|collecting component types|generating Go types for component schemas|generating code for type definitions|converting Schema [^ ]+ to Go type)|failed to load OpenAPI specification): //; ta' <<<"$line")
	line=${line//$2/}
	line=${line//$work\/out\//}
	line=$(printf '%s' "$line" | tr -d '\r\t' | tr '|`' '/' | cut -c 1-140)
	printf '%s' "$line"
}

gomod() { # DIR TOOL: a module for the generated package, against this checkout
	local extra=
	case $2 in
	ogen) extra="require github.com/ogen-go/ogen $ogen_version" ;;
	oapi-codegen) [ -n "$oapi_runtime" ] && extra="require github.com/oapi-codegen/runtime $oapi_runtime" ;;
	opentoolgen) cp "$root/go.sum" "$1/go.sum" ;;
	esac
	cat >"$1/go.mod" <<EOF
module corpus

go 1.26

require github.com/opentoolgen/opentoolgen v0.0.0

$extra

replace github.com/opentoolgen/opentoolgen => $root
EOF
}

root=$(cd "$(dirname "$0")/.." && pwd)
work=${CORPUS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/opentoolgen-corpus}
limit=${LIMIT:-600}
jobs=${JOBS:-2}
tools=${TOOLS:-"opentoolgen oapi-codegen ogen"}
export GOBIN=$work/bin
export GOFLAGS=-mod=mod
mkdir -p "$GOBIN" "$work/res"
log() { echo "$@" >&2; }

(cd "$root" && go build -o "$GOBIN/opentoolgen" ./cmd/opentoolgen)
[ -x "$GOBIN/oapi-codegen" ] || go install "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@$oapi_version" >&2 || log "oapi-codegen: install failed"
if [ ! -x "$GOBIN/ogen" ]; then
	# go install …@version asks the proxy for the module's version list
	# (deprecation check); where that is refused, build it in a scratch module.
	go install "github.com/ogen-go/ogen/cmd/ogen@$ogen_version" >&2 || (
		mkdir -p "$work/ogen-build" && cd "$work/ogen-build" &&
			printf 'module ogenbuild\n\ngo 1.26\n\nrequire github.com/ogen-go/ogen %s\n' "$ogen_version" >go.mod &&
			go build -o "$GOBIN/ogen" github.com/ogen-go/ogen/cmd/ogen >&2
	) || log "ogen: install failed"
fi

# The runtime modules of the peers' output, required up front: the proxy may
# refuse the version lists that go mod tidy would otherwise ask for.
oapi_runtime=$(go mod download -json "github.com/oapi-codegen/oapi-codegen/v2@$oapi_version" 2>/dev/null |
	sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p' | xargs -r grep -h 'github.com/oapi-codegen/runtime ' | awk '{print $2}' | head -n 1 || true)

# Ours is generated again when the generator or the runtime its output builds
# on changes, and built again when its output changes (outkey).
rt_key=$(cd "$root" && (git ls-files -s -- runtime internal go.mod go.sum && git diff HEAD -- runtime internal go.mod go.sum) | sha256sum | cut -c 1-16)
ours_key=$( (
	sha256sum "$GOBIN/opentoolgen"
	echo "$rt_key"
) | sha256sum | cut -c 1-12)
key_of() {
	case $1 in
	opentoolgen) echo "$ours_key" ;;
	oapi-codegen) echo "$oapi_version" ;;
	ogen) echo "$ogen_version-remote" ;;
	esac
}

declare -A moddir
declare -a ids docs refdirs
while read -r key path refdir; do
	if [ -z "${moddir[$key]:-}" ]; then
		moddir[$key]=$(go mod download -json "$(module_of "$key")" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	fi
	id=$(short_path "$key" "$path")
	if [ $# -gt 0 ]; then
		want=
		for a in "$@"; do [ "$a" = "$id" ] && want=1; done
		[ -n "$want" ] || continue
	fi
	ids+=("$id")
	docs+=("${moddir[$key]}/$path")
	refdirs+=("${refdir:--}")
done < <(corpus)

export work limit root oapi_runtime ogen_version rt_key
export -f one first_line gomod outkey
# Ours first (quick), then the peers; the largest documents first so that the
# long builds overlap with the many small ones.
tasks=$work/tasks
: >"$tasks"
for t in $tools; do
	k=$(key_of "$t")
	mkdir -p "$work/res/$t"
	for i in "${!ids[@]}"; do
		res=$work/res/$t/${ids[$i]//[:\/]/_}.$k
		[ -s "$res" ] && continue
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(stat -c %s "${docs[$i]}")" "$t" "${docs[$i]}" "${ids[$i]}" "$res" "${refdirs[$i]}" >>"$tasks"
	done
done
n=$(wc -l <"$tasks")
log "corpus: ${#ids[@]} documents, $n steps to run (JOBS=$jobs, LIMIT=${limit}s, work directory $work)"
sort -t$'\t' -k1,1nr "$tasks" | cut -f 2- | tr '\t' '\n' |
	xargs -r -d '\n' -n 5 -P "$jobs" bash -c 'one "$@"; echo "done: $1 $3" >&2' _

cell() { # STATUS REASON
	case $1 in
	ok) echo "✓" ;;
	gen) echo "✗ gen: $2" ;;
	build) echo "✗ build: $2" ;;
	timeout) echo "✗ timeout: $2" ;;
	*) echo "–" ;;
	esac
}
version_of() { # PATH: the version line of a document
	grep -m 1 -oE "[\"']?(openapi|swagger)[\"']?[[:space:]]*:[[:space:]]*[\"']?[0-9][0-9.]*" "$1" | grep -oE '[0-9][0-9.]*$' || echo "?"
}

{
	declare -A okcount
	peeronly=
	echo "| document | version | opentoolgen | oapi-codegen | ogen |"
	echo "|---|---|---|---|---|"
	for i in "${!ids[@]}"; do
		row="| ${ids[$i]} | $(version_of "${docs[$i]}") "
		declare -A st=()
		for t in opentoolgen oapi-codegen ogen; do
			res=$work/res/$t/${ids[$i]//[:\/]/_}.$(key_of "$t")
			s=missing r=
			[ -s "$res" ] && IFS=$'\t' read -r s r <"$res"
			st[$t]=$s
			[ "$s" = ok ] && okcount[$t]=$((${okcount[$t]:-0} + 1))
			row+="| $(cell "$s" "$r") "
		done
		echo "$row|"
		if [ "${st[opentoolgen]}" != ok ] && { [ "${st[oapi-codegen]}" = ok ] || [ "${st[ogen]}" = ok ]; }; then
			peeronly+="- ${ids[$i]}"$'\n'
		fi
	done
	echo
	total=${#ids[@]}
	for t in opentoolgen oapi-codegen ogen; do
		c=${okcount[$t]:-0}
		echo "- $t: $c of $total generated and compiled ($(awk -v c="$c" -v n="$total" 'BEGIN{printf "%.1f", 100*c/n}') %)"
	done
	echo
	if [ -n "$peeronly" ]; then
		echo "Documents a peer handles that opentoolgen does not:"
		echo
		printf '%s' "$peeronly"
	else
		echo "No document that a peer handles fails with opentoolgen."
	fi
} | tee "$work/report.md"
log "work directory: $work"
