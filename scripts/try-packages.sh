#!/usr/bin/env bash
# The README's install story, as a new user runs it, against this checkout's packages: `npm pack` both packages,
# install the tarballs into a fresh app (the runtime as a dependency, the generator as a devDependency), generate
# the orders example with `npx toon-gen` (target js: run by plain node, bundled by esbuild for the browser;
# target ts: compiled by tsc), then a
# production install (`npm install --omit=dev`) and its size. Prints the figures the README quotes.
# Usage: scripts/try-packages.sh [workdir]   (default: a new folder under /tmp; needs the npm registry)
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${1:-$(mktemp -d /tmp/toon-try-XXXXXX)}"
mkdir -p "$WORK/pkgs"
cd "$REPO"
npm pack --silent --pack-destination "$WORK/pkgs" >/dev/null
npm pack --silent -w @toon-gen/runtime --pack-destination "$WORK/pkgs" >/dev/null
RT="$WORK/pkgs/toon-gen-runtime-$(node -p 'require("./runtime/package.json").version').tgz"
GEN="$WORK/pkgs/toon-gen-$(node -p 'require("./package.json").version').tgz"
echo "tarballs: @toon-gen/runtime $(stat -c %s "$RT") B, toon-gen $(stat -c %s "$GEN") B"

APP="$WORK/app"
rm -rf "$APP" && mkdir -p "$APP" && cd "$APP"
npm init -y >/dev/null && npm pkg set type=module
cp -r "$REPO/examples/orders/schemas" "$REPO/examples/orders/data" .
npm install --silent --no-audit --no-fund "$RT"
npm install --silent --no-audit --no-fund --save-dev "$GEN" typescript@6.0.3 @types/node@20
echo "dev install: $(npm ls --all --parseable | tail -n +2 | wc -l) packages, $(du -sh node_modules | cut -f1)"

# JavaScript: target js, plain node
cat > toon.config.json <<'EOF'
{ "inputs": ["schemas/*.schema.json"], "outDir": "gen", "dictionaryDir": "dictionaries", "samples": ["data/*.json"], "target": "js" }
EOF
npx toon-gen
cat > app.mjs <<'EOF'
import { readFileSync } from "node:fs";
import { OrderList } from "./gen/index.js";
import { ToonError } from "@toon-gen/runtime";
import { toonOutput } from "@toon-gen/runtime/ai";
const data = JSON.parse(readFileSync("data/order-list.json", "utf8"));
const bytes = OrderList.encode(data);
console.log(`${data.orders.length} orders: JSON ${JSON.stringify(data).length} B, TOON binary ${bytes.length} B`);
console.log("round trip equal:", JSON.stringify(OrderList.decode(bytes)) === JSON.stringify(data));
try { OrderList.decode(bytes.subarray(0, 10)); } catch (e) { console.log("truncated input:", e instanceof ToonError ? e.code : e); }
// a model's reply streamed in 5-character pieces: each order out as its row completes
const reply = "Here you are:\n\n```toon\n" + OrderList.toText(data, { layout: "dense" }) + "\n```\nAnything else?";
const r = OrderList.reader();
let streamed = 0;
for (let i = 0; i < reply.length; i += 5) for (const e of r.push(reply.slice(i, i + 5))) if (e.type === "element" && e.path === "orders[]") streamed++;
console.log(`dense reply in 5-character pieces: ${streamed} orders as they completed, value equal:`, JSON.stringify(r.end()) === JSON.stringify(data));
// the AI SDK adapter needs no `ai` installed
console.log("toonOutput instructions:", toonOutput(OrderList, { layout: "dense" }).instructions?.length, "chars");
EOF
node app.mjs

# a schema whose pattern backtracks on RegExp: the generator says it runs on re2js, the validator imports it
# (its own package.json: the app's step is `npm install re2js`; the generator and runtime resolve from the app above)
mkdir -p patterns && cd patterns
npm init -y >/dev/null && npm pkg set type=module
cat > path.schema.json <<'EOF'
{ "title": "WorkflowRef", "type": "object", "properties": { "uses": { "type": "string", "pattern": "^(.+\\/)+(.+)\\.(ya?ml)(@.+)?$" } }, "required": ["uses"] }
EOF
echo '{ "inputs": ["path.schema.json"], "outDir": "gen", "dictionaryDir": "dictionaries", "target": "js" }' > toon.config.json
../node_modules/.bin/toon-gen 2>&1 | grep -o 'runs on re2js (linear time)\|add it to the app.s dependencies' | sort -u
npm install --silent --no-audit --no-fund re2js
echo "app dependencies: $(node -p 'Object.keys(require("./package.json").dependencies).join(", ")')"
echo "validator imports of re2js: $(grep -c '^import { RE2JS as \$RE2JS } from "re2js";' gen/path.validate.js)"
cat > check.mjs <<'EOF'
import { WorkflowRef } from "./gen/index.js";
const attack = "@" + "/m".repeat(5000) + "!";
const t = performance.now();
const bad = WorkflowRef.validate({ uses: attack });
console.log(`re2js pattern: 10 KB attack ${bad.ok ? "accepted" : "rejected"} in ${(performance.now() - t).toFixed(1)} ms, a valid ref ${WorkflowRef.validate({ uses: "o/r/.github/workflows/ci.yml@v1" }).ok ? "accepted" : "rejected"}`);
EOF
node check.mjs
cd ..

# bundler and browser: esbuild from the app's own install, only the binary codec kept
npm install --silent --no-audit --no-fund --save-dev esbuild@0.28.2
cat > browser.js <<'EOF'
import { OrderListBinary } from "./gen/order-list.js";
export const roundTrip = (value) => OrderListBinary.decode(OrderListBinary.encode(value));
EOF
npx esbuild browser.js --bundle --minify --platform=browser --format=esm --log-level=warning --outfile=bundle.js
echo "browser bundle (esbuild --bundle --minify --platform=browser): $(stat -c %s bundle.js) B, $(gzip -9 -c bundle.js | wc -c) B gzip -9"
# the app's own modules (gen/ included) declared free of side effects: the unused validator module goes too
npm pkg set sideEffects=false --json
npx esbuild browser.js --bundle --minify --platform=browser --format=esm --log-level=warning --outfile=bundle.js
echo "browser bundle, app with \"sideEffects\": false: $(stat -c %s bundle.js) B, $(gzip -9 -c bundle.js | wc -c) B gzip -9"
npm pkg delete sideEffects

# TypeScript: target ts, compiled by tsc (strict, NodeNext)
mkdir -p ts/src && cd ts
cp -r ../schemas ../data .
cat > toon.config.json <<'EOF'
{ "inputs": ["schemas/*.schema.json"], "outDir": "src/gen", "dictionaryDir": "dictionaries", "samples": ["data/*.json"] }
EOF
cat > tsconfig.json <<'EOF'
{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true, "exactOptionalPropertyTypes": true, "noUncheckedIndexedAccess": true, "types": ["node"], "rootDir": "src", "outDir": "dist" }, "include": ["src"] }
EOF
npx toon-gen
sed 's|const data = |const data: OrderList = |; s|catch (e)|catch (e: unknown)|' ../app.mjs > src/app.ts
npx tsc -p tsconfig.json
node dist/app.js
cd ..

# production: what `npm install --omit=dev` puts in an app
PROD="$WORK/prod"
rm -rf "$PROD" && mkdir -p "$PROD" && cp package.json app.mjs "$PROD" && cp -r gen data "$PROD"
cd "$PROD"
npm install --silent --no-audit --no-fund --omit=dev
echo "production install: $(find node_modules -name package.json -not -path '*/dist/*' | wc -l) package(s): $(npm ls --omit=dev --all --parseable | tail -n +2 | sed "s|$PROD/node_modules/||" | tr '\n' ' ')"
echo "production size: $(du -sb node_modules | cut -f1) B (du -sb), $(du -sh node_modules | cut -f1) on disk (du -sh)"
node app.mjs
