/**
 * Classic XSS payloads for the "untrusted text is never HTML" test. Each one, if it ever ran,
 * would set `window.__xss` (or open a dialog), so a test can prove that none executed; the
 * text must also show literally, character for character.
 */
export const XSS_FLAG = '__xss';

const hit = `window.${XSS_FLAG}=1`;

export const XSS_PAYLOADS: readonly string[] = [
  `<script>${hit}</script>`,
  `<img src=x onerror="${hit}">`,
  `<img src=x onerror=${hit}>`,
  `<svg onload=${hit}>`,
  `<svg><script>${hit}</script></svg>`,
  `<body onload=${hit}>`,
  `<iframe src="javascript:${hit}"></iframe>`,
  `<iframe srcdoc="<script>parent.${hit}</script>"></iframe>`,
  `<a href="javascript:${hit}">click me</a>`,
  `javascript:${hit}`,
  `<details open ontoggle=${hit}>`,
  `<input autofocus onfocus=${hit}>`,
  `<video><source onerror="${hit}"></video>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=${hit}>`,
  `"><script>${hit}</script>`,
  `'><img src=x onerror=${hit}>`,
  `<object data="javascript:${hit}"></object>`,
  `<marquee onstart=${hit}>`,
  `{{constructor.constructor('${hit}')()}}`,
  `<style>@import 'javascript:${hit}';</style>`,
  `<img src=x onerror=alert(1)>`,
  `<div style="background:url(javascript:${hit})">x</div>`,
];
