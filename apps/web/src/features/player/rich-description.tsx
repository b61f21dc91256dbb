import { Fragment, type ReactNode } from 'react';

/**
 * A product description: its formatting (paragraphs, lists, bold, italic, http(s) links) when the
 * catalogue kept some, else its plain text.
 *
 * The formatted form was allow-listed by the server; it is still not trusted here. It is parsed
 * into an inert document (DOMParser: no script runs, no image loads) and rebuilt as new elements
 * of the same allow-list, never inserted as HTML: an attribute other than a link's http(s) href,
 * or any other element, cannot reach the page whatever the stored text holds.
 */
export function RichDescription({ text, html }: { text: string; html?: string | null | undefined }) {
  const nodes = html && typeof DOMParser !== 'undefined' ? richNodes(html) : null;
  if (!nodes) return text ? <p className="product-details__description">{text}</p> : null;
  return <div className="product-details__description product-details__description--rich">{nodes}</div>;
}

/** The allow-listed elements of `html`, as React nodes; null when it holds nothing. */
export function richNodes(html: string): ReactNode[] | null {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  const nodes = Array.from(body.childNodes, (node, index) => rebuild(node, index));
  return nodes.some((node) => node !== null && node !== '') ? nodes : null;
}

const SAFE_HREF = /^https?:\/\/[^/\\\s]/i;

function rebuild(node: Node, key: number): ReactNode {
  if (node.nodeType === 3) return node.textContent;
  if (node.nodeType !== 1) return null;
  const element = node as Element;
  const children = Array.from(element.childNodes, (child, index) => rebuild(child, index));
  switch (element.tagName.toLowerCase()) {
    case 'p':
      return <p key={key}>{children}</p>;
    case 'br':
      return <br key={key} />;
    case 'ul':
      return <ul key={key}>{children}</ul>;
    case 'ol':
      return <ol key={key}>{children}</ol>;
    case 'li':
      return <li key={key}>{children}</li>;
    case 'strong':
    case 'b':
      return <strong key={key}>{children}</strong>;
    case 'em':
    case 'i':
      return <em key={key}>{children}</em>;
    case 'a': {
      const href = element.getAttribute('href')?.trim() ?? '';
      return SAFE_HREF.test(href) ? (
        <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow">
          {children}
        </a>
      ) : (
        <Fragment key={key}>{children}</Fragment>
      );
    }
    // Scripts, styles and the like lose their content too; any other element keeps only its text.
    case 'script':
    case 'style':
    case 'template':
    case 'noscript':
    case 'iframe':
    case 'object':
    case 'textarea':
    case 'title':
      return null;
    default:
      return <Fragment key={key}>{children}</Fragment>;
  }
}
