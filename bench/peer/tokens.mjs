// Counts the tokens of each server's tools/list catalogue with gpt-tokenizer (o200k_base) and
// writes them back into results.json.   node tokens.mjs results.json
import { readFileSync, writeFileSync } from "node:fs";
import { encode } from "gpt-tokenizer/encoding/o200k_base";

const path = process.argv[2];
const results = JSON.parse(readFileSync(path, "utf8"));
for (const size of results.sizes) {
  for (const [name, r] of Object.entries(size.servers)) {
    if (r.catalogue?.json) {
      r.catalogue.tokens = encode(r.catalogue.json).length;
      delete r.catalogue.json;
      console.log(`${name}: ${r.catalogue.tools} tools, ${r.catalogue.bytes} bytes, ${r.catalogue.tokens} tokens`);
    }
  }
}
writeFileSync(path, JSON.stringify(results, null, 1));
