import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.VITRINE_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  base: '/',
  build: { target: 'es2022', sourcemap: true, reportCompressedSize: false },
  // `vite` dev server: forward API and media calls to a running Vitrine server.
  server: {
    proxy: Object.fromEntries(
      ['/functions', '/shopapiv2', '/reads', '/admin', '/demo-media'].map((path) => [path, apiTarget]),
    ),
  },
});
