// Nordlys Living's own shop script: its catalogue, its basket (in localStorage) and the Vitrine
// integration, the reference host cart integration of docs/embedding.md. The shop, not Vitrine,
// owns the basket: the player asks for it and changes it through the handlers below.

const PAGE_UID = 'demo-store';
const LIVE_CAMPAIGN_UID = 'demo-autumn-living';
const VITRINE_ORIGIN = document.documentElement.dataset.vitrineOrigin;
const CART_KEY = 'nordlys:cart';
const USER_KEY = 'nordlys:user';
const FAVORITES_KEY = 'nordlys:favorites';
const MEMBER = { userAccountId: 'member-1042', name: 'Ida Holm' };
/** Members pay 10 % less; the player shows the price the shop sends for its user. */
const MEMBER_DISCOUNT = 0.1;

// ---------------------------------------------------------------------------------------------
// The shop's catalogue: its ids are the external ids the Vitrine catalogue was imported with;
// variant ids are those of the Vitrine catalogue. Prices in DKK, as numbers of kroner.

const option = (id, optionType, values) => ({ id, optionType, values });
const variant = (id, name, price, options) => ({ id, name, price, options });

const shirtVariants = ['sand', 'sage'].flatMap((colour) =>
  ['s', 'm', 'l'].map((size) =>
    variant(`nordlys-linen-shirt-${colour}-${size}`, `${capitalize(colour)} / ${size.toUpperCase()}`, 549, {
      colour,
      size,
    }),
  ),
);

const CATALOGUE = [
  {
    id: 'NL-linen-shirt',
    uid: 'nordlys-linen-shirt',
    sku: 'NL-LS',
    slug: 'linen-shirt',
    name: 'Linen shirt',
    price: 549,
    description:
      'A relaxed shirt in washed European linen that gets softer with every wash. Mother-of-pearl buttons, a single chest pocket and a straight hem to wear in or out.',
    options: [
      option('colour', 'color', [
        ['sand', 'Sand'],
        ['sage', 'Sage'],
      ]),
      option('size', 'size', [
        ['s', 'S'],
        ['m', 'M'],
        ['l', 'L'],
      ]),
    ],
    variants: shirtVariants,
    soldOut: ['nordlys-linen-shirt-sage-l'],
  },
  {
    id: 'NL-ceramic-mug',
    uid: 'nordlys-ceramic-mug',
    sku: 'NL-CM',
    slug: 'ceramic-mug',
    name: 'Ceramic mug',
    price: 179,
    description: 'Wheel-thrown stoneware mug with a terracotta body and a cream glaze. Holds 350 ml.',
    options: [],
    variants: [],
  },
  {
    id: 'NL-wool-scarf',
    uid: 'nordlys-wool-scarf',
    sku: 'NL-WS',
    slug: 'wool-scarf',
    name: 'Wool scarf',
    price: 399,
    description: 'A generous scarf woven from soft lambswool in Jutland, with a knotted fringe.',
    options: [
      option('colour', 'color', [
        ['rust', 'Rust'],
        ['charcoal', 'Charcoal'],
        ['oat', 'Oat'],
      ]),
    ],
    variants: ['rust', 'charcoal', 'oat'].map((colour) =>
      variant(`nordlys-wool-scarf-${colour}`, capitalize(colour), 399, { colour }),
    ),
  },
  {
    id: 'NL-oak-board',
    uid: 'nordlys-oak-board',
    sku: 'NL-OB',
    slug: 'oak-board',
    name: 'Oak serving board',
    price: 449,
    description: 'Cut from a single piece of FSC-certified Danish oak and finished with food-safe oil.',
    options: [
      option('size', 'size', [
        ['small', 'Small, 30 x 20 cm'],
        ['large', 'Large, 45 x 28 cm'],
      ]),
    ],
    variants: [
      variant('nordlys-oak-board-small', 'Small', 449, { size: 'small' }),
      variant('nordlys-oak-board-large', 'Large', 599, { size: 'large' }),
    ],
  },
  {
    id: 'NL-stoneware-vase',
    uid: 'nordlys-stoneware-vase',
    sku: 'NL-SV',
    slug: 'stoneware-vase',
    name: 'Stoneware vase',
    price: 349,
    description: 'A round-bellied vase in speckled sage stoneware, glazed inside. Height 24 cm.',
    options: [],
    variants: [],
  },
  {
    id: 'NL-beeswax-candles',
    uid: 'nordlys-beeswax-candles',
    sku: 'NL-BC',
    slug: 'beeswax-candles',
    name: 'Beeswax candles',
    price: 129,
    description: 'Three hand-dipped candles of pure Danish beeswax. Set of three, 25 cm.',
    options: [],
    variants: [],
  },
];

for (const product of CATALOGUE) {
  // The address in the Vitrine catalogue, and the product's page in this demo shop.
  product.catalogueUrl = `https://nordlys.example/products/${product.slug}`;
  product.url = new URL(`./?product=${product.slug}`, location.href).href;
}

/** A product by any name the player may use for it: external id, Vitrine uid, SKU or URL. */
const PRODUCTS = new Map(
  CATALOGUE.flatMap((product) =>
    [product.id, product.uid, product.sku, product.catalogueUrl, product.url].map((key) => [key, product]),
  ),
);

function findProduct(lookup) {
  return PRODUCTS.get(lookup.product_id) ?? PRODUCTS.get(lookup.sku) ?? PRODUCTS.get(lookup.url) ?? null;
}

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const imageOf = (product) => `${VITRINE_ORIGIN}/demo-media/product-${product.slug}.jpg`;
const kroner = new Intl.NumberFormat('da-DK', { style: 'currency', currency: 'DKK' });

// ---------------------------------------------------------------------------------------------
// The shopper: a demo member sign-in, favourites and the basket, all in localStorage.

function readJson(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

const user = () => readJson(USER_KEY, null);
const favorites = () => new Set(readJson(FAVORITES_KEY, []));
const priceFor = (price) => (user() ? Math.round(price * (1 - MEMBER_DISCOUNT)) : price);

/** Basket lines `{ product_id, variant_id, quantity }`, keyed by product id and variant id. */
function cartLines() {
  const lines = readJson(CART_KEY, []);
  return Array.isArray(lines) ? lines.filter((line) => findProduct(line) && line.quantity > 0) : [];
}

function cartState() {
  const lines = cartLines();
  return { lines, itemCount: lines.reduce((sum, line) => sum + line.quantity, 0) };
}

const sameLine = (line, productId, variantId) =>
  line.product_id === productId && line.variant_id === variantId;

/** Sets a line's quantity (0 removes it); returns an error message, or null when done. */
function setQuantity(productId, variantId, quantity) {
  const product = PRODUCTS.get(productId);
  if (!product) return 'We do not sell this product in our shop.';
  if (!Number.isInteger(quantity) || quantity < 0 || quantity > 99) return 'Please choose between 0 and 99.';
  if (product.variants.length && !product.variants.some((v) => v.id === variantId))
    return 'Please choose a colour or size first.';
  if (quantity > 0 && product.soldOut?.includes(variantId)) return 'Sorry, this one is sold out.';
  const lines = cartLines().filter((line) => !sameLine(line, product.id, variantId));
  if (quantity > 0) lines.push({ product_id: product.id, variant_id: variantId ?? null, quantity });
  localStorage.setItem(CART_KEY, JSON.stringify(lines));
  cartChanged();
  return null;
}

function quantityOf(productId, variantId) {
  return cartLines().find((line) => sameLine(line, productId, variantId))?.quantity ?? 0;
}

/** The shop's answer to "what does this product cost for this user" (spec §3 "Host product data"). */
function productData(lookup) {
  const product = findProduct(lookup);
  // Not ours: answer with the id alone, so the player keeps its own catalogue's data.
  if (!product) return { product_id: lookup.product_id };
  return {
    product_id: lookup.product_id,
    sku: product.sku,
    url: product.url,
    name: product.name,
    price: priceFor(product.price),
    suggestedRetailPrice: user() ? product.price : null,
    isFavorite: favorites().has(product.id),
    salable: true,
    options: product.options.map((o) => ({
      id: o.id,
      optionType: o.optionType,
      optionValues: o.values.map(([id]) => ({ id })),
    })),
    variants: product.variants.map((v) => ({
      id: v.id,
      price: priceFor(v.price),
      options: Object.entries(v.options).map(([optionId, optionValueId]) => ({ optionId, optionValueId })),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// The Vitrine integration: what the shop can do for the player, and the handlers doing it.

const { Vitrine } = window;

/** Every player on this page hears about basket and user changes, wherever they come from. */
function tellPlayers(type, payload) {
  for (const player of Vitrine?.players() ?? []) player.send(type, payload);
}

const integration = {
  usableActions: [
    'OPEN_CART',
    'GET_CART_CONTENTS',
    'UPDATE_CART_CONTENTS',
    'GET_USER_DATA',
    'GET_PRODUCT_DATA',
    'TOGGLE_IS_FAVORITE',
  ],
  supportedFeatures: { MINIMIZED_PLAYER: true, NAVIGATION: 'SAME_TAB', FORCE_BASKET_MODE: 'WEBSHOP' },
  handlers: logged({
    host_open_cart(_payload, _reply, player) {
      // Keep the show going in the corner while the shopper looks at the basket.
      player.minimize();
      location.assign('cart.html');
    },
    host_request_cart_state(_payload, reply) {
      reply('host_cart_state_changed', cartState());
    },
    host_cart_state_changed({ product_id, variant_id, quantity }, reply) {
      const error = setQuantity(product_id, variant_id, quantity);
      if (error) {
        reply('host_cart_update_error', { product_id, message: error });
        reply('host_cart_state_changed', cartState());
      }
    },
    get_user_account_data(_payload, reply) {
      reply('user_account_data', user() ?? { userAccountId: null, name: null });
    },
    get_user_product_data(lookup, reply) {
      reply('user_product_data', productData(lookup));
    },
    get_user_product_data_list({ products }, reply) {
      reply('user_product_data_list', { products: products.map(productData) });
    },
    toggle_is_favorite({ product: lookup, isFavorite }, reply) {
      const product = findProduct(lookup);
      if (!product) return;
      const ids = favorites();
      if (isFavorite) ids.add(product.id);
      else ids.delete(product.id);
      localStorage.setItem(FAVORITES_KEY, JSON.stringify([...ids]));
      reply('user_product_data', productData(lookup));
    },
    track_event() {},
  }),
};

/** Wraps each handler so the page's developer log shows what the player sent. */
function logged(handlers) {
  return Object.fromEntries(
    Object.entries(handlers).map(([type, handler]) => [
      type,
      (payload, reply, player) => {
        logMessage(type, payload);
        return handler(payload, reply, player);
      },
    ]),
  );
}

function logMessage(type, payload) {
  const log = document.querySelector('[data-message-log]');
  if (!log) return;
  const time = new Date().toLocaleTimeString('en-GB');
  log.prepend(
    h('li', {}, h('code', {}, type), ` ${time} `, h('small', {}, JSON.stringify(payload).slice(0, 300))),
  );
  while (log.children.length > 50) log.lastElementChild.remove();
}

function openShows() {
  Vitrine?.init({ pageUid: PAGE_UID, mode: 'modal', context: 'on_site', ...integration });
}

function embedLiveShow() {
  if (!Vitrine || !document.getElementById('live-player')) return;
  Vitrine.init({
    pageUid: PAGE_UID,
    campaignUid: LIVE_CAMPAIGN_UID,
    mode: 'inline',
    aspectRatio: '9:16',
    container: '#live-player',
    context: 'on_site',
    ...integration,
  });
}

/**
 * "Seen live" on the product page: the SDK's seenLive player shows the newest clip a show cut for
 * this product (by its id in this shop's catalogue). The section appears when the player is ready
 * (it found a clip); with none, the player closes itself and the page stays as it was.
 */
function embedSeenLive() {
  const section = document.querySelector('[data-seen-live]');
  const detail = document.querySelector('[data-product-detail]');
  if (!Vitrine || !section || !detail) return;
  const slug = new URLSearchParams(location.search).get('product');
  const product = CATALOGUE.find((p) => p.slug === slug) ?? PRODUCTS.get(detail.dataset.productDetail);
  if (!product) return;
  Vitrine.init({
    pageUid: PAGE_UID,
    mode: 'inline',
    container: '#seen-live-player',
    context: 'on_site',
    seenLive: product.id,
    handlers: {
      player_ready() {
        section.hidden = false;
      },
    },
  });
}

// ---------------------------------------------------------------------------------------------
// The shop's own pages.

function h(tag, props, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key.startsWith('on')) element.addEventListener(key.slice(2), value);
    else if (value !== false && value != null) element.setAttribute(key, value === true ? '' : value);
  }
  element.append(...children.filter((child) => child != null));
  return element;
}

function priceNode(price) {
  const own = priceFor(price);
  return own === price
    ? h('span', { class: 'price' }, kroner.format(price))
    : h(
        'span',
        { class: 'price' },
        h('s', {}, kroner.format(price)),
        ' ',
        h('strong', {}, kroner.format(own)),
      );
}

function renderProductDetail(section) {
  const slug = new URLSearchParams(location.search).get('product');
  const product = CATALOGUE.find((p) => p.slug === slug) ?? PRODUCTS.get(section.dataset.productDetail);
  document.title = `${product.name} · Nordlys Living`;
  const selects = product.options.map((o) =>
    h(
      'label',
      { class: 'option' },
      o.id === 'colour' ? 'Colour' : 'Size',
      h('select', { name: o.id }, ...o.values.map(([id, name]) => h('option', { value: id }, name))),
    ),
  );
  const status = h('p', { class: 'status', role: 'status' });
  const form = h(
    'form',
    {
      class: 'buy',
      onsubmit: (event) => {
        event.preventDefault();
        const chosen = Object.fromEntries(new FormData(event.target));
        const match = product.variants.find((v) =>
          Object.entries(v.options).every(([k, val]) => chosen[k] === val),
        );
        const variantId = match?.id ?? null;
        const error = setQuantity(product.id, variantId, quantityOf(product.id, variantId) + 1);
        status.textContent =
          error ?? `Added ${product.name}${match ? ` (${match.name})` : ''} to your basket.`;
      },
    },
    ...selects,
    h('button', { type: 'submit', class: 'primary' }, 'Add to basket'),
  );
  section.replaceChildren(
    h('img', { src: imageOf(product), alt: product.name, width: 480, height: 480 }),
    h(
      'div',
      { class: 'product-info' },
      h('h1', {}, product.name),
      priceNode(product.price),
      h('p', {}, product.description),
      form,
      status,
    ),
  );
}

function renderGrid(grid) {
  const slug = new URLSearchParams(location.search).get('product') ?? 'linen-shirt';
  const shown = CATALOGUE.filter((product) => product.slug !== slug);
  grid.replaceChildren(
    ...shown.map((product) =>
      h(
        'li',
        { class: 'card' },
        h('img', { src: imageOf(product), alt: '', width: 240, height: 240, loading: 'lazy' }),
        h('h3', {}, h('a', { href: product.url }, product.name)),
        priceNode(product.price),
        favorites().has(product.id) ? h('span', { class: 'favorite', title: 'Favourite' }, '♥') : null,
        product.variants.length
          ? h('small', {}, `${product.variants.length} variants`)
          : h(
              'button',
              {
                type: 'button',
                onclick: () => setQuantity(product.id, null, quantityOf(product.id, null) + 1),
              },
              'Add to basket',
            ),
      ),
    ),
  );
}

function renderCart(container) {
  const { lines } = cartState();
  if (!lines.length) {
    container.replaceChildren(h('p', { class: 'empty' }, 'Your basket is empty.'));
    return;
  }
  let total = 0;
  const rows = lines.map((line) => {
    const product = PRODUCTS.get(line.product_id);
    const chosen = product.variants.find((v) => v.id === line.variant_id);
    const unit = priceFor(chosen?.price ?? product.price);
    total += unit * line.quantity;
    const change = (quantity) => () => setQuantity(line.product_id, line.variant_id, quantity);
    return h(
      'tr',
      { 'data-line': `${line.product_id}/${line.variant_id ?? ''}` },
      h('td', {}, h('img', { src: imageOf(product), alt: '', width: 56, height: 56 })),
      h('td', {}, h('strong', {}, product.name), chosen ? h('div', {}, h('small', {}, chosen.name)) : null),
      h(
        'td',
        { class: 'quantity' },
        h('button', { type: 'button', 'aria-label': 'One less', onclick: change(line.quantity - 1) }, '−'),
        h('span', { 'data-quantity': true }, String(line.quantity)),
        h('button', { type: 'button', 'aria-label': 'One more', onclick: change(line.quantity + 1) }, '+'),
      ),
      h('td', { class: 'amount' }, kroner.format(unit * line.quantity)),
      h('td', {}, h('button', { type: 'button', class: 'remove', onclick: change(0) }, 'Remove')),
    );
  });
  container.replaceChildren(
    h('table', { class: 'cart' }, h('tbody', {}, ...rows)),
    h('p', { class: 'total' }, 'Total ', h('strong', { 'data-cart-total': true }, kroner.format(total))),
    h(
      'button',
      { type: 'button', class: 'primary', onclick: () => alert('This is a demo shop: nothing is ordered.') },
      'Go to checkout',
    ),
  );
}

function renderUser() {
  const current = user();
  for (const button of document.querySelectorAll('[data-sign-in]')) {
    button.textContent = current ? `${current.name} (member) · Sign out` : 'Sign in as a member';
  }
}

function renderCartCount() {
  const { itemCount } = cartState();
  for (const badge of document.querySelectorAll('[data-cart-count]')) {
    badge.textContent = String(itemCount);
    badge.hidden = itemCount === 0;
  }
}

function render() {
  renderUser();
  renderCartCount();
  for (const section of document.querySelectorAll('[data-product-detail]')) renderProductDetail(section);
  for (const grid of document.querySelectorAll('[data-product-grid]')) renderGrid(grid);
  for (const cart of document.querySelectorAll('[data-cart]')) renderCart(cart);
}

function cartChanged() {
  render();
  tellPlayers('host_cart_state_changed', cartState());
}

function toggleUser() {
  if (user()) localStorage.removeItem(USER_KEY);
  else localStorage.setItem(USER_KEY, JSON.stringify(MEMBER));
  render();
  // A new user: the player drops the product data it holds and asks again (spec §4).
  tellPlayers('user_account_data', user() ?? { userAccountId: null, name: null });
}

for (const button of document.querySelectorAll('[data-watch-shows]'))
  button.addEventListener('click', openShows);
for (const button of document.querySelectorAll('[data-sign-in]'))
  button.addEventListener('click', toggleUser);
// Another tab changed the basket or signed in.
window.addEventListener('storage', (event) => {
  if (event.key === CART_KEY) cartChanged();
  else if (event.key === USER_KEY) render();
});

render();
// On every page: bring back the player minimized on the previous one, with this page's handlers.
Vitrine?.restore(integration);
embedLiveShow();
embedSeenLive();
