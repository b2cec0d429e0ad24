import { createReadStream, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import sharp from 'sharp';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

/**
 * Files the browser liveness check loads at run time, served from our own origin (no CDN, nothing
 * downloaded while running): URL path under the base → file in node_modules. The web app reads
 * them from the same paths (src/features/onboarding/liveness/face-landmarks.ts).
 */
function livenessAssets(): Map<string, string> {
  const faceApiModels = path.join(packageDir('@vladmandic/face-api'), 'model');
  const tfjsWasm = path.join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist');
  const assets = new Map<string, string>();
  for (const model of ['tiny_face_detector_model', 'face_landmark_68_model']) {
    for (const file of [`${model}-weights_manifest.json`, `${model}.bin`]) {
      assets.set(`models/face-api/${file}`, path.join(faceApiModels, file));
    }
  }
  for (const file of [
    'tfjs-backend-wasm.wasm',
    'tfjs-backend-wasm-simd.wasm',
    'tfjs-backend-wasm-threaded-simd.wasm',
  ]) {
    assets.set(`models/tfjs-wasm/${file}`, path.join(tfjsWasm, file));
  }
  return assets;
}

const CONTENT_TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.bin': 'application/octet-stream',
  '.wasm': 'application/wasm',
};

/** Copies the liveness model weights and tfjs wasm binaries into dist/models/, and serves them in dev. */
function livenessAssetsPlugin(): Plugin {
  const assets = livenessAssets();
  return {
    name: 'boomgate-liveness-assets',
    configureServer(server) {
      const base = server.config.base;
      server.middlewares.use((request, response, next) => {
        const pathname = (request.url ?? '').split('?')[0] ?? '';
        const file = pathname.startsWith(base)
          ? assets.get(pathname.slice(base.length))
          : undefined;
        if (!file) return next();
        response.setHeader(
          'content-type',
          CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
        );
        createReadStream(file).pipe(response);
      });
    },
    generateBundle() {
      for (const [fileName, file] of assets) {
        this.emitFile({ type: 'asset', fileName, source: readFileSync(file) });
      }
    },
  };
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes `.br` and `.gz` next to every compressible built file, so the server sends them as they are
 * (@fastify/static `preCompressed`) without compressing per request. Source maps are left out; a
 * copy is kept only when it saves at least a tenth.
 */
function precompressPlugin(): Plugin {
  return {
    name: 'boomgate-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      const files = Object.keys(bundle).filter((name) =>
        /\.(js|css|html|svg|json|wasm)$/.test(name),
      );
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(dir, name);
          const source = await readFile(file);
          if (source.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(source, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
            gzipAsync(source, { level: 9 }),
          ]);
          if (br.length < source.length * 0.9) await writeFile(`${file}.br`, br);
          if (gz.length < source.length * 0.9) await writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

/**
 * main.tsx loads React DOM and the app (providers, routes) with dynamic imports, so that each runs
 * in its own task; these tags let the browser fetch them with the entry from the HTML instead of
 * after the entry has run. `modules` are the dynamically imported sources main.tsx always loads.
 */
function preloadStartupChunksPlugin(modules: RegExp[]): Plugin {
  return {
    name: 'boomgate-preload-startup-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const files = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName)) return;
          files.add(fileName);
          for (const imported of byFile.get(fileName)?.imports ?? []) visit(imported);
        };
        for (const chunk of chunks) {
          const id = chunk.facadeModuleId ?? '';
          if (chunk.isDynamicEntry && modules.some((pattern) => pattern.test(id))) {
            visit(chunk.fileName);
          }
        }
        return [...files]
          .filter((fileName) => !html.includes(`/${fileName}"`))
          .map((fileName) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
            injectTo: 'head' as const,
          }));
      },
    },
  };
}

const BRAND_MARK = fileURLToPath(new URL('./public/favicon.svg', import.meta.url));
const BRAND_BACKGROUND = '#18181b';

/**
 * The installed app's icons (issue 18), rendered at build time from the brand mark
 * (public/favicon.svg) with sharp: nothing is downloaded, no binary is kept in the repository.
 * The maskable icon keeps the mark inside the safe zone (80 %) on the mark's own background.
 */
function pwaIconsPlugin(): Plugin {
  return {
    name: 'boomgate-pwa-icons',
    apply: 'build',
    async generateBundle() {
      const svg = await readFile(BRAND_MARK);
      const render = (size: number) =>
        sharp(svg, { density: Math.ceil((72 * size) / 32) })
          .resize(size, size)
          .png()
          .toBuffer();
      const maskable = await sharp({
        create: { width: 512, height: 512, channels: 4, background: BRAND_BACKGROUND },
      })
        .composite([{ input: await render(400), gravity: 'centre' }])
        .png()
        .toBuffer();
      for (const size of [192, 512]) {
        this.emitFile({
          type: 'asset',
          fileName: `icons/icon-${size}.png`,
          source: await render(size),
        });
      }
      this.emitFile({ type: 'asset', fileName: 'icons/maskable-512.png', source: maskable });
      this.emitFile({
        type: 'asset',
        fileName: 'icons/apple-touch-icon.png',
        source: await render(180),
      });
    },
  };
}

/**
 * Issue 18: the installable, offline-first app. injectManifest: our service worker (src/sw.ts) gets
 * the list of every built file to precache, from our own origin; other handlers (Web Push) are
 * imported into it. The page registers it itself after load (main.tsx), and a new version waits
 * for the next start ('prompt') instead of reloading a screen in use.
 */
function pwaPlugin() {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src',
    filename: 'sw.ts',
    injectRegister: false,
    // The icons are in globPatterns already; the manifest is added by the plugin.
    includeManifestIcons: false,
    registerType: 'prompt',
    manifest: {
      name: 'Boomgate',
      short_name: 'Boomgate',
      description: 'Gate, vehicle and driver verification',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      orientation: 'any',
      background_color: '#ffffff',
      theme_color: BRAND_BACKGROUND,
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
        {
          src: '/icons/maskable-512.png',
          sizes: '512x512',
          type: 'image/png',
          purpose: 'maskable',
        },
        { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
      ],
    },
    injectManifest: {
      // Every built file, the liveness models and wasm included, but not the source maps or the
      // .br/.gz copies (the server picks those by Accept-Encoding).
      globPatterns: ['**/*.{js,css,html,svg,png,ico,json,bin,wasm,woff2}'],
      globIgnores: ['**/*.map', 'sw.js'],
      maximumFileSizeToCacheInBytes: 32 * 1024 * 1024,
    },
    devOptions: { enabled: false },
  });
}

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    livenessAssetsPlugin(),
    precompressPlugin(),
    preloadStartupChunksPlugin([/\/react-dom\/client\.js$/, /\/src\/app\/app\.tsx$/]),
    pwaIconsPlugin(),
    pwaPlugin(),
  ],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    port: 5173,
    // The API runs on :5000 in development; in production the server serves dist/ on one origin.
    proxy: { '/api': { target: 'http://localhost:5000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The budget that matters is the initial JS at ≤ 200 KB gzip; minified size only warns. The
    // face model chunk (tfjs + face-api) loads only on the liveness step.
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      output: {
        // Shared code under 8 KB (before minification: an icon, a small helper, a hook) is copied
        // into the chunks that use it instead of being a chunk of its own: the auto-gate page
        // fetched ~60 files, most of a few hundred bytes, each a round trip on a slow phone
        // connection. Turns on strict execution order (modules run in source order).
        codeSplitting: { experimentalInlineCommonChunks: { maxSize: 8192 } },
      },
    },
  },
});
