// Making a photo ready to send. Run: node bench/images.mjs [runs=7]
// A 12-megapixel JPEG (4000×3000, noisy like a camera's) and a 4K PNG screenshot, through hac's prepareImage for
// each provider's limits, against a floor measured in the same run: sharp alone decoding the same file and
// scaling it to the same size. Target: a 12-megapixel photo ready within 300 ms on this machine (medians).
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import sharp from 'sharp';

const root = path.resolve(import.meta.dirname, '..');
const runs = Math.max(3, Number(process.argv[2] ?? 7));
// Inside node_modules, so the bundle finds sharp (a native addon, left out of it) where hac does.
const work = path.join(root, 'node_modules/.cache/hac-bench-images');
mkdirSync(work, { recursive: true });
const bundle = path.join(work, 'images.mjs');
writeFileSync(
  path.join(work, 'entry.ts'),
  `export * from '${root}/core/images/prepare-image.ts';\nexport * from '${root}/core/images/image-limits.ts';\n`,
);
await build({
  entryPoints: [path.join(work, 'entry.ts')],
  outfile: bundle,
  bundle: true,
  format: 'esm',
  platform: 'node',
  external: ['sharp'],
  logLevel: 'warning',
  absWorkingDir: root,
  nodePaths: [path.join(root, 'node_modules')],
});
const { prepareImage, IMAGE_LIMITS, fitWithin } = await import(bundle);

const noise = (width, height) =>
  sharp({ create: { width, height, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 40 } } });
const photo = await noise(4000, 3000).jpeg({ quality: 90 }).toBuffer();
const screenshot = await sharp({ create: { width: 3840, height: 2160, channels: 4, background: '#1e1e2e' } })
  .composite([{ input: await noise(1200, 800).png().toBuffer(), top: 200, left: 300 }])
  .png()
  .toBuffer();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(fn) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

let met = true;
for (const [label, bytes, format] of [
  ['12 MP JPEG photo', photo, 'jpeg'],
  ['4K PNG screenshot', screenshot, 'png'],
]) {
  for (const [provider, limits] of Object.entries(IMAGE_LIMITS)) {
    const meta = await sharp(bytes).metadata();
    const size = fitWithin(meta.width, meta.height, limits);
    const floor = await time(() =>
      sharp(bytes).resize(size.width, size.height, { fit: 'fill' })[format]().toBuffer(),
    );
    let out;
    const hac = await time(async () => (out = await prepareImage(bytes, 'bench', limits)));
    const ok = label.startsWith('12 MP') ? hac <= 300 : true;
    met &&= ok;
    console.log(
      `${label} (${(bytes.length / 1048576).toFixed(1)} MB) for ${provider}: hac ${hac.toFixed(0)} ms → ${out.width}×${out.height} ${out.mediaType} ${Math.round(out.bytes / 1024)} KB; sharp alone ${floor.toFixed(0)} ms (${(hac / floor).toFixed(2)}×)${label.startsWith('12 MP') ? `; target ≤ 300 ms: ${ok ? 'met' : 'MISSED'}` : ''}`,
    );
  }
}
console.log(`${os.cpus().length} cores, ${runs} runs each, medians`);
process.exit(met ? 0 : 1);
