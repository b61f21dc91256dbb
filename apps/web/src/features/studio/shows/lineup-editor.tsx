import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { formatMoney } from '@vitrine/domain';
import type { PriceList, Show, ShowLineupItem } from '@vitrine/protocol';
import type { Locale } from '@vitrine/protocol/vocabulary';
import { useRef, useState } from 'react';
import { staffCall } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';

/** The first price of a product, formatted for the studio's language. */
function priceText(prices: PriceList, language: string): string {
  const [currency, amount] = Object.entries(prices)[0] ?? [];
  return currency && amount !== undefined ? formatMoney(amount, currency, language as Locale) : '';
}

/**
 * Items are keyed by product (unique in a line-up), not by event product uid: a product just
 * added has its uid only once saved, and a changing key would drop it mid-drag.
 *
 * The show's products in the order the host presents them: drag (or move with the keyboard) to
 * reorder, remove, and add from the store's catalogue. Every change is saved at once.
 */
export function LineupEditor({ show, onChange }: { show: Show; onChange: (show: Show) => void }) {
  const { t, i18n } = useStudioTranslation('studio-shows');
  const store = useStudioStore();
  const [items, setItems] = useState<ShowLineupItem[]>(show.lineup);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  // Saves go one after another (a quick second move must not reach the server first), and only
  // the answer to the latest one replaces what is shown, so an earlier answer never undoes a move.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const latest = useRef(0);
  const lastSaved = useRef<ShowLineupItem[]>(show.lineup);

  const save = (next: ShowLineupItem[], message: string) => {
    const request = ++latest.current;
    setItems(next);
    setSaving(true);
    setFailure(null);
    queue.current = queue.current.then(async () => {
      try {
        const saved = await staffCall('setShowLineup', {
          params: { pageUid: store.pageUid, showUid: show.uid },
          body: { productUids: next.map((item) => item.productUid) },
        });
        lastSaved.current = saved.lineup;
        if (request !== latest.current) return;
        setItems(saved.lineup);
        onChange(saved);
        setAnnouncement(message);
      } catch (error) {
        if (request !== latest.current) return;
        setItems(lastSaved.current);
        setFailure(refusalText(error, t('lineup.failed')));
      } finally {
        if (request === latest.current) setSaving(false);
      }
    });
  };

  /** What screen readers hear while a product is moved, by name and position, in the studio's language. */
  const place = (id: UniqueIdentifier | undefined) => {
    const index = items.findIndex((item) => item.productUid === id);
    return { name: items[index]?.name ?? '', position: index + 1 };
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('lineup.a11y.pickedUp', place(active.id)),
    onDragOver: ({ active, over }) =>
      over
        ? t('lineup.a11y.over', { name: place(active.id).name, position: place(over.id).position })
        : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? t('lineup.a11y.dropped', { name: place(active.id).name, position: place(over.id).position })
        : undefined,
    onDragCancel: ({ active }) => t('lineup.a11y.cancelled', place(active.id)),
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = items.findIndex((item) => item.productUid === active.id);
    const to = items.findIndex((item) => item.productUid === over.id);
    if (from < 0 || to < 0) return;
    const moved = items[from];
    save(arrayMove(items, from, to), t('lineup.moved', { name: moved?.name, position: to + 1 }));
  };

  const add = (product: {
    uid: string;
    name: string;
    sku: string;
    image: string | null;
    prices: PriceList;
  }) =>
    void save(
      [
        ...items,
        {
          uid: `new-${product.uid}`,
          productUid: product.uid,
          name: product.name,
          sku: product.sku,
          image: product.image,
          prices: product.prices,
        },
      ],
      t('lineup.added', { name: product.name }),
    );

  return (
    <div className="shows-lineup" aria-busy={saving}>
      <p className="studio-muted studio-small">{t('lineup.help')}</p>
      {items.length === 0 ? (
        <p className="studio-notice">{t('lineup.empty')}</p>
      ) : (
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          onDragEnd={onDragEnd}
          accessibility={{
            announcements,
            screenReaderInstructions: { draggable: t('lineup.a11y.instructions') },
          }}
        >
          <SortableContext
            items={items.map((item) => item.productUid)}
            strategy={verticalListSortingStrategy}
          >
            <ol className="shows-lineup__list">
              {items.map((item, index) => (
                <LineupRow
                  key={item.productUid}
                  item={item}
                  position={index + 1}
                  price={priceText(item.prices, i18n.language)}
                  onRemove={() =>
                    save(
                      items.filter((candidate) => candidate.productUid !== item.productUid),
                      t('lineup.removed', { name: item.name }),
                    )
                  }
                />
              ))}
            </ol>
          </SortableContext>
        </DndContext>
      )}
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <ErrorNotice message={failure} />
      <ProductPicker chosen={new Set(items.map((item) => item.productUid))} onPick={add} disabled={saving} />
    </div>
  );
}

function LineupRow({
  item,
  position,
  price,
  onRemove,
}: {
  item: ShowLineupItem;
  position: number;
  price: string;
  onRemove: () => void;
}) {
  const { t } = useStudioTranslation('studio-shows');
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: item.productUid,
  });
  return (
    <li
      ref={setNodeRef}
      className={`shows-lineup__item${isDragging ? ' shows-lineup__item--dragging' : ''}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
    >
      <button
        type="button"
        className="shows-lineup__handle"
        aria-label={t('lineup.drag', { name: item.name, position })}
        {...attributes}
        {...listeners}
      >
        <span aria-hidden="true">⋮⋮</span>
      </button>
      <span className="shows-lineup__position">{position}</span>
      <ProductCells product={item} price={price} />
      <button type="button" className="studio-button studio-button--quiet" onClick={onRemove}>
        {t('lineup.remove')}
        <span className="visually-hidden"> {item.name}</span>
      </button>
    </li>
  );
}

/** A product's picture, name with SKU, and price: the same in a line-up row and a search result. */
function ProductCells({
  product,
  price,
}: {
  product: Pick<ShowLineupItem, 'name' | 'sku' | 'image'>;
  price: string;
}) {
  return (
    <>
      {product.image ? (
        <img className="shows-lineup__image" src={product.image} alt="" />
      ) : (
        <span className="shows-lineup__image" aria-hidden="true" />
      )}
      <span className="shows-lineup__name">
        {product.name}
        {product.sku && <span className="studio-muted studio-small"> · {product.sku}</span>}
      </span>
      <span className="shows-lineup__price">{price}</span>
    </>
  );
}

/** Searches the store's catalogue (archived products left out) and adds a product to the line-up. */
function ProductPicker({
  chosen,
  onPick,
  disabled,
}: {
  chosen: ReadonlySet<string>;
  onPick: (product: {
    uid: string;
    name: string;
    sku: string;
    image: string | null;
    prices: PriceList;
  }) => void;
  disabled: boolean;
}) {
  const { t, i18n } = useStudioTranslation('studio-shows');
  const store = useStudioStore();
  const [search, setSearch] = useState('');
  const found = useStaffQuery('listStudioProducts', {
    params: { pageUid: store.pageUid },
    query: { q: search.trim(), limit: 8 },
  });
  const products = (found.data?.products ?? []).filter((product) => !chosen.has(product.uid));
  return (
    <div className="shows-picker">
      <SearchField
        label={t('lineup.search')}
        value={search}
        placeholder={t('lineup.searchPlaceholder')}
        onChange={setSearch}
      />
      {found.error && <ErrorNotice message={refusalText(found.error, t('lineup.searchFailed'))} />}
      {found.data && products.length === 0 ? (
        <p className="studio-muted studio-small">{t('lineup.noProducts')}</p>
      ) : (
        <ul className="shows-picker__results">
          {products.map((product) => (
            <li key={product.uid} className="shows-picker__result">
              <ProductCells product={product} price={priceText(product.prices, i18n.language)} />
              <button
                type="button"
                className="studio-button"
                disabled={disabled}
                onClick={() => onPick(product)}
              >
                {t('lineup.add')}
                <span className="visually-hidden"> {product.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
