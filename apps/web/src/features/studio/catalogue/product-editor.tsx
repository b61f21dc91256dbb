import { zodResolver } from '@hookform/resolvers/zod';
import {
  combinationKey,
  IMAGE_UPLOAD_MEDIA_TYPES,
  MAX_IMAGE_UPLOAD_BYTES,
  MAX_PRODUCT_OPTIONS,
  optionCombinations,
  optionTypeOf,
  variantName,
} from '@vitrine/domain';
import { ProductInput, type StudioProduct } from '@vitrine/protocol';
import { useEffect, useId, useMemo, useState } from 'react';
import { Controller, type FieldErrors, useFieldArray, useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { staffCall, uploadFile } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { BackLink } from '../ui/back-link.tsx';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { FormField } from '../ui/form-field.tsx';
import { ProgressBar } from '../ui/progress-bar.tsx';
import { StudioLoading } from '../ui/studio-loading.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import { newLocalId, priceFieldText, priceFromField, withoutEmptyCompareAt } from './catalogue-format.ts';

type ProductForm = z.input<typeof ProductInput>;
type Notice = { kind: 'success' | 'error'; text: string };
type ProductValues = z.output<typeof ProductInput>;

const EMPTY_PRODUCT: ProductForm = {
  name: '',
  description: '',
  externalId: '',
  sku: '',
  url: null,
  images: [],
  prices: {},
  stock: null,
  options: [],
  variants: [],
};

/** The form's values of a stored product (the studio's extra fields left out). */
function formOf(product: StudioProduct): ProductForm {
  const { uid: _uid, pageUid: _pageUid, archived: _archived, updatedAt: _updatedAt, ...input } = product;
  return input;
}

/** Creates or edits a product: its fields, prices per currency, images, options and variant matrix. */
export function ProductEditor() {
  const { productUid } = useParams();
  const store = useStudioStore();
  const info = useStaffQuery('getCatalogueInfo', { params: { pageUid: store.pageUid } });
  const [loaded, setLoaded] = useState<StudioProduct | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const { t } = useStudioTranslation('studio-catalogue');

  // What was said about the last action (saved, archived, failed): kept here so it outlives the
  // form's remount when a new product's page becomes the product's own.
  const [notice, setNotice] = useState<Notice | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a product just saved here needs no fetch.
  useEffect(() => {
    setLoadError(null);
    if (!productUid) {
      setLoaded(null);
      return;
    }
    if (loaded?.uid === productUid) return;
    setLoaded(null);
    setNotice(null);
    staffCall('getStudioProduct', { params: { pageUid: store.pageUid, productUid } }).then(
      setLoaded,
      (error) => setLoadError(refusalText(error, t('editor.loadFailed'))),
    );
  }, [productUid, store.pageUid, t]);

  if (loadError)
    return (
      <StudioPage title={t('editor.editTitle')}>
        <p role="alert" className="studio-notice studio-notice--error">
          {loadError}
        </p>
      </StudioPage>
    );
  if ((productUid && !loaded) || !info.data) return <StudioLoading />;
  return (
    <EditorForm
      key={loaded?.uid ?? 'new'}
      product={loaded}
      currencies={[...new Set([...info.data.currencies, ...Object.keys(loaded?.prices ?? {})])]}
      onSaved={setLoaded}
      notice={notice}
      setNotice={setNotice}
    />
  );
}

function EditorForm({
  product,
  currencies,
  onSaved,
  notice,
  setNotice,
}: {
  product: StudioProduct | null;
  currencies: string[];
  onSaved: (product: StudioProduct) => void;
  notice: Notice | null;
  setNotice: (notice: Notice | null) => void;
}) {
  const { t } = useStudioTranslation('studio-catalogue');
  const store = useStudioStore();
  const navigate = useNavigate();
  const form = useForm<ProductForm, unknown, ProductValues>({
    resolver: (values, context, options) =>
      zodResolver(ProductInput)(withoutEmptyCompareAt(values), context, options),
    defaultValues: product ? formOf(product) : EMPTY_PRODUCT,
    mode: 'onBlur',
  });
  const { register, control, handleSubmit, formState, watch, setValue, getValues, reset } = form;
  const errors = formState.errors;
  const options = useFieldArray({ control, name: 'options' });
  const variants = watch('variants') ?? [];
  const hasOptions = (watch('options') ?? []).length > 0;

  /** Makes the variants one per combination of option values, keeping what each had. */
  const syncVariants = () => {
    const currentOptions = getValues('options') ?? [];
    const previous = new Map(
      (getValues('variants') ?? []).map((variant) => [combinationKey(variant.options), variant]),
    );
    const withValues = currentOptions.filter((option) => option.optionValues.length > 0);
    const combinations = optionCombinations(
      withValues.map((option) => option.optionValues.map((value) => ({ option, value }))),
    );
    const productPrices = getValues('prices');
    setValue(
      'variants',
      combinations.map((combination) => {
        const choices = combination.map(({ option, value }) => ({
          optionId: option.id,
          optionValueId: value.id,
        }));
        const known = previous.get(combinationKey(choices));
        return {
          uid: known?.uid ?? newLocalId('v'),
          name: variantName(combination.map(({ value }) => value.name)),
          sku: known?.sku ?? '',
          prices: known?.prices ?? { ...productPrices },
          compareAtPrices: known?.compareAtPrices ?? { ...getValues('compareAtPrices') },
          stock: known?.stock ?? null,
          options: choices,
        };
      }),
      { shouldDirty: true },
    );
  };

  const save = handleSubmit(async (edited) => {
    setNotice(null);
    // The imported formatting belongs to the text it came with: edited text is saved plain.
    const values = formState.dirtyFields.description ? { ...edited, descriptionHtml: null } : edited;
    try {
      const saved = product
        ? await staffCall('updateStudioProduct', {
            params: { pageUid: store.pageUid, productUid: product.uid },
            body: values,
          })
        : await staffCall('createStudioProduct', { params: { pageUid: store.pageUid }, body: values });
      onSaved(saved);
      reset(formOf(saved));
      setNotice({ kind: 'success', text: t('editor.saved') });
      if (!product) navigate(`../${saved.uid}`, { replace: true, relative: 'path' });
    } catch (error) {
      setNotice({ kind: 'error', text: refusalText(error, t('editor.saveFailed')) });
    }
  });

  const duplicate = async () => {
    if (!product) return;
    try {
      const copy = await staffCall('duplicateStudioProduct', {
        params: { pageUid: store.pageUid, productUid: product.uid },
      });
      navigate(`../${copy.uid}`, { relative: 'path' });
    } catch (error) {
      setNotice({ kind: 'error', text: refusalText(error, t('editor.saveFailed')) });
    }
  };

  const setArchived = async (archived: boolean) => {
    if (!product) return;
    const changed = await staffCall('setStudioProductArchived', {
      params: { pageUid: store.pageUid, productUid: product.uid },
      body: { archived },
    });
    onSaved(changed);
    setNotice({ kind: 'success', text: archived ? t('editor.archivedNotice') : t('editor.restoredNotice') });
  };

  return (
    <StudioPage
      title={product ? product.name : t('editor.newTitle')}
      actions={
        <>
          <BackLink to="..">{t('editor.back')}</BackLink>
          {product && (
            <>
              <button type="button" className="studio-button" onClick={() => void duplicate()}>
                {t('editor.duplicate')}
              </button>
              {product.archived ? (
                <button type="button" className="studio-button" onClick={() => void setArchived(false)}>
                  {t('editor.restore')}
                </button>
              ) : (
                <ConfirmButton
                  title={t('editor.archiveTitle')}
                  message={t('editor.archiveMessage', { name: product.name })}
                  confirmLabel={t('editor.archive')}
                  onConfirm={() => setArchived(true)}
                >
                  {t('editor.archive')}
                </ConfirmButton>
              )}
            </>
          )}
        </>
      }
    >
      {product?.archived && <p className="studio-notice">{t('editor.isArchived')}</p>}
      <form className="catalogue-editor" onSubmit={(event) => void save(event)} noValidate>
        <section className="studio-card">
          <h2 className="catalogue-heading">{t('editor.details')}</h2>
          <div className="studio-form-grid">
            <FormField label={t('editor.name')} error={errors.name?.message}>
              {(props) => <input {...props} className="studio-input" {...register('name')} />}
            </FormField>
            <FormField label={t('editor.sku')} error={errors.sku?.message}>
              {(props) => <input {...props} className="studio-input" {...register('sku')} />}
            </FormField>
            <FormField
              label={t('editor.handle')}
              hint={t('editor.handleHint')}
              error={errors.externalId?.message}
            >
              {(props) => <input {...props} className="studio-input" {...register('externalId')} />}
            </FormField>
            <FormField label={t('editor.url')} error={errors.url?.message}>
              {(props) => (
                <input
                  {...props}
                  type="url"
                  className="studio-input"
                  placeholder="https://"
                  {...register('url', { setValueAs: (value: string | null) => (value ? value : null) })}
                />
              )}
            </FormField>
          </div>
          <FormField
            label={t('editor.description')}
            hint={watch('descriptionHtml') ? t('editor.descriptionFormatted') : undefined}
            error={errors.description?.message}
          >
            {(props) => (
              <textarea {...props} rows={4} className="studio-input" {...register('description')} />
            )}
          </FormField>
        </section>

        <section className="studio-card">
          <h2 className="catalogue-heading">{t('editor.pricesAndStock')}</h2>
          <div className="studio-form-grid">
            {currencies.map((currency) => (
              <Controller
                key={currency}
                control={control}
                name={`prices.${currency}` as 'prices.EUR'}
                render={({ field, fieldState }) => (
                  <PriceField
                    label={t('editor.price', { currency })}
                    currency={currency}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    error={fieldState.error?.message}
                  />
                )}
              />
            ))}
            {currencies.map((currency) => (
              <Controller
                key={`was-${currency}`}
                control={control}
                name={`compareAtPrices.${currency}` as 'compareAtPrices.EUR'}
                render={({ field, fieldState }) => (
                  <PriceField
                    label={t('editor.compareAtPrice', { currency })}
                    hint={t('editor.compareAtHint')}
                    currency={currency}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    error={fieldState.error?.message}
                  />
                )}
              />
            ))}
            {!hasOptions && (
              <FormField label={t('editor.stock')} hint={t('editor.stockHint')} error={errors.stock?.message}>
                {(props) => (
                  <input
                    {...props}
                    type="number"
                    min={0}
                    className="studio-input"
                    {...register('stock', { setValueAs: stockOf })}
                  />
                )}
              </FormField>
            )}
          </div>
          {errors.prices?.message && <p className="studio-field__error">{errors.prices.message}</p>}
        </section>

        <ImagesCard
          images={watch('images') ?? []}
          onChange={(images) => setValue('images', images, { shouldDirty: true, shouldValidate: true })}
          error={errors.images?.message}
        />

        <section className="studio-card">
          <h2 className="catalogue-heading">{t('editor.options')}</h2>
          <p className="studio-muted studio-small">{t('editor.optionsHint')}</p>
          {options.fields.map((option, index) => (
            <OptionRow
              key={option.id}
              index={index}
              name={watch(`options.${index}.name`) ?? ''}
              values={watch(`options.${index}.optionValues`) ?? []}
              nameField={register(`options.${index}.name`, {
                onChange: (event: { target: { value: string } }) => {
                  setValue(`options.${index}.optionType`, optionTypeOf(event.target.value));
                  syncVariants();
                },
              })}
              error={errors.options?.[index]?.name?.message ?? errors.options?.[index]?.optionValues?.message}
              onValues={(values) => {
                setValue(`options.${index}.optionValues`, values, { shouldDirty: true });
                syncVariants();
              }}
              onRemove={() => {
                options.remove(index);
                syncVariants();
              }}
            />
          ))}
          {options.fields.length < MAX_PRODUCT_OPTIONS && (
            <button
              type="button"
              className="studio-button"
              onClick={() => {
                options.append({ id: newLocalId('o'), optionType: 'option', name: '', optionValues: [] });
              }}
            >
              {t('editor.addOption')}
            </button>
          )}
        </section>

        {variants.length > 0 && (
          <VariantTable
            currencies={currencies}
            count={variants.length}
            names={variants.map((variant) => variant.name)}
            register={register}
            control={control}
            errors={errors}
          />
        )}

        {notice && (
          <p
            role={notice.kind === 'error' ? 'alert' : 'status'}
            className={`studio-notice studio-notice--${notice.kind}`}
          >
            {notice.text}
          </p>
        )}
        {Object.keys(errors).length > 0 && <ErrorNotice message={t('editor.fixErrors')} />}
        <div className="catalogue-editor__actions">
          <button
            type="submit"
            className="studio-button studio-button--primary"
            disabled={formState.isSubmitting}
          >
            {product ? t('editor.save') : t('editor.create')}
          </button>
        </div>
      </form>
    </StudioPage>
  );
}

const stockOf = (value: unknown) =>
  value === '' || value === null || value === undefined ? null : Number(value);

/** A price typed as a decimal ("249.00") and kept as minor units; NaN when it is not a price. */
function PriceField({
  label,
  hint,
  currency,
  value,
  onChange,
  onBlur,
  error,
}: {
  label: string;
  hint?: string;
  currency: string;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  onBlur?: () => void;
  error?: string | undefined;
}) {
  const { t } = useStudioTranslation('studio-catalogue');
  const [text, setText] = useState(() => priceFieldText(value, currency));
  return (
    <FormField label={label} hint={hint} error={error && Number.isNaN(value) ? t('editor.notAPrice') : error}>
      {(props) => (
        <input
          {...props}
          inputMode="decimal"
          className="studio-input catalogue-price"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            onChange(priceFromField(event.target.value, currency));
          }}
          onBlur={onBlur}
        />
      )}
    </FormField>
  );
}

type OptionValueForm = NonNullable<ProductForm['options']>[number]['optionValues'][number];

function OptionRow({
  index,
  name,
  values,
  nameField,
  error,
  onValues,
  onRemove,
}: {
  index: number;
  name: string;
  values: OptionValueForm[];
  nameField: ReturnType<ReturnType<typeof useForm<ProductForm, unknown, ProductValues>>['register']>;
  error?: string | undefined;
  onValues: (values: OptionValueForm[]) => void;
  onRemove: () => void;
}) {
  const { t } = useStudioTranslation('studio-catalogue');
  const [typed, setTyped] = useState('');
  const valueInputId = useId();
  const add = () => {
    const names = typed
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part && !values.some((value) => value.name.toLowerCase() === part.toLowerCase()));
    if (names.length === 0) return;
    onValues([...values, ...names.map((valueName) => ({ id: newLocalId('ov'), name: valueName }))]);
    setTyped('');
  };
  return (
    <fieldset className="catalogue-option">
      <legend className="visually-hidden">{t('editor.optionLegend', { number: index + 1 })}</legend>
      <FormField label={t('editor.optionName', { number: index + 1 })} error={error}>
        {(props) => (
          <input
            {...props}
            className="studio-input"
            placeholder={t('editor.optionNamePlaceholder')}
            {...nameField}
          />
        )}
      </FormField>
      <div className="catalogue-option__values">
        <label htmlFor={valueInputId} className="studio-field__label">
          {t('editor.optionValues', { name: name || t('editor.optionName', { number: index + 1 }) })}
        </label>
        <ul className="catalogue-chips">
          {values.map((value) => (
            <li key={value.id} className="catalogue-chip">
              {value.name}
              <button
                type="button"
                className="catalogue-chip__remove"
                aria-label={t('editor.removeValue', { value: value.name })}
                onClick={() => onValues(values.filter((other) => other.id !== value.id))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <div className="catalogue-option__add">
          <input
            id={valueInputId}
            className="studio-input"
            value={typed}
            placeholder={t('editor.valuePlaceholder')}
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                add();
              }
            }}
          />
          <button type="button" className="studio-button" onClick={add}>
            {t('editor.addValue')}
          </button>
        </div>
      </div>
      <button
        type="button"
        className="studio-button studio-button--quiet catalogue-option__remove"
        onClick={onRemove}
      >
        {t('editor.removeOption')}
      </button>
    </fieldset>
  );
}

function VariantTable({
  currencies,
  count,
  names,
  register,
  control,
  errors,
}: {
  currencies: string[];
  count: number;
  names: string[];
  register: ReturnType<typeof useForm<ProductForm, unknown, ProductValues>>['register'];
  control: ReturnType<typeof useForm<ProductForm, unknown, ProductValues>>['control'];
  errors: FieldErrors<ProductForm>;
}) {
  const { t } = useStudioTranslation('studio-catalogue');
  const rows = useMemo(() => Array.from({ length: count }, (_, index) => index), [count]);
  return (
    <section className="studio-card">
      <h2 className="catalogue-heading">{t('editor.variants', { n: count })}</h2>
      {errors.variants?.message && <p className="studio-field__error">{errors.variants.message}</p>}
      <div className="studio-table-wrap catalogue-variants">
        <table className="studio-table">
          <thead>
            <tr>
              <th scope="col">{t('editor.variant')}</th>
              <th scope="col">{t('editor.sku')}</th>
              {currencies.map((currency) => (
                <th scope="col" key={currency}>
                  {t('editor.price', { currency })}
                </th>
              ))}
              {currencies.map((currency) => (
                <th scope="col" key={`was-${currency}`}>
                  {t('editor.compareAtPrice', { currency })}
                </th>
              ))}
              <th scope="col">{t('editor.stock')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((index) => {
              const rowErrors = errors.variants?.[index];
              const name = names[index] ?? '';
              return (
                <tr key={`${index}-${name}`}>
                  <th scope="row">{name}</th>
                  <td>
                    <input
                      className="studio-input"
                      aria-label={t('editor.variantSku', { variant: name })}
                      aria-invalid={Boolean(rowErrors?.sku)}
                      {...register(`variants.${index}.sku`)}
                    />
                    {rowErrors?.sku && <p className="studio-field__error">{rowErrors.sku.message}</p>}
                  </td>
                  {currencies.map((currency) => (
                    <td key={currency}>
                      <Controller
                        control={control}
                        name={`variants.${index}.prices.${currency}` as 'variants.0.prices.EUR'}
                        render={({ field, fieldState }) => (
                          <VariantPrice
                            label={t('editor.variantPrice', { variant: name, currency })}
                            currency={currency}
                            value={field.value}
                            onChange={field.onChange}
                            error={fieldState.error ? t('editor.notAPrice') : undefined}
                          />
                        )}
                      />
                    </td>
                  ))}
                  {currencies.map((currency) => (
                    <td key={`was-${currency}`}>
                      <Controller
                        control={control}
                        name={
                          `variants.${index}.compareAtPrices.${currency}` as 'variants.0.compareAtPrices.EUR'
                        }
                        render={({ field, fieldState }) => (
                          <VariantPrice
                            label={t('editor.variantCompareAtPrice', { variant: name, currency })}
                            currency={currency}
                            value={field.value}
                            onChange={field.onChange}
                            error={fieldState.error ? t('editor.notAPrice') : undefined}
                          />
                        )}
                      />
                    </td>
                  ))}
                  <td>
                    <input
                      type="number"
                      min={0}
                      className="studio-input catalogue-stock"
                      aria-label={t('editor.variantStock', { variant: name })}
                      aria-invalid={Boolean(rowErrors?.stock)}
                      {...register(`variants.${index}.stock`, { setValueAs: stockOf })}
                    />
                    {rowErrors?.stock && <p className="studio-field__error">{rowErrors.stock.message}</p>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="studio-muted studio-small">{t('editor.stockHint')}</p>
    </section>
  );
}

function VariantPrice({
  label,
  currency,
  value,
  onChange,
  error,
}: {
  label: string;
  currency: string;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  error?: string | undefined;
}) {
  const [text, setText] = useState(() => priceFieldText(value, currency));
  return (
    <>
      <input
        inputMode="decimal"
        className="studio-input catalogue-price"
        aria-label={label}
        aria-invalid={Boolean(error)}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          onChange(priceFromField(event.target.value, currency));
        }}
      />
      {error && <p className="studio-field__error">{error}</p>}
    </>
  );
}

/** One upload in progress: its file's name and how far it got. */
interface Upload {
  id: string;
  name: string;
  progress: number;
  error: string | null;
}

function ImagesCard({
  images,
  onChange,
  error,
}: {
  images: string[];
  onChange: (images: string[]) => void;
  error?: string | undefined;
}) {
  const { t } = useStudioTranslation('studio-catalogue');
  const store = useStudioStore();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const inputId = useId();

  const upload = async (files: FileList | null) => {
    let current = images;
    for (const file of Array.from(files ?? [])) {
      const id = newLocalId('u');
      const patch = (change: Partial<Upload>) =>
        setUploads((list) => list.map((item) => (item.id === id ? { ...item, ...change } : item)));
      setUploads((list) => [...list, { id, name: file.name, progress: 0, error: null }]);
      if (file.size > MAX_IMAGE_UPLOAD_BYTES) {
        patch({ error: t('editor.imageTooLarge', { megabytes: MAX_IMAGE_UPLOAD_BYTES / (1024 * 1024) }) });
        continue;
      }
      try {
        const stored = await uploadFile('uploadProductImage', { pageUid: store.pageUid }, file, (progress) =>
          patch({ progress }),
        );
        current = [...current, stored.url];
        onChange(current);
        setUploads((list) => list.filter((item) => item.id !== id));
      } catch (failure) {
        patch({ error: refusalText(failure, t('editor.uploadFailed')) });
      }
    }
  };

  const move = (from: number, to: number) => {
    const next = [...images];
    const [moved] = next.splice(from, 1);
    if (moved === undefined) return;
    next.splice(to, 0, moved);
    onChange(next);
  };

  return (
    <section className="studio-card">
      <h2 className="catalogue-heading">{t('editor.images')}</h2>
      {images.length > 0 && (
        <ul className="catalogue-images">
          {images.map((src, index) => (
            <li key={src} className="catalogue-image">
              <img src={src} alt={t('editor.imageAlt', { number: index + 1 })} />
              <div className="catalogue-image__actions">
                {index > 0 && (
                  <button
                    type="button"
                    className="studio-button studio-button--quiet"
                    aria-label={t('editor.imageFirst', { number: index + 1 })}
                    onClick={() => move(index, 0)}
                  >
                    ★
                  </button>
                )}
                <button
                  type="button"
                  className="studio-button studio-button--quiet"
                  aria-label={t('editor.imageRemove', { number: index + 1 })}
                  onClick={() => onChange(images.filter((_, other) => other !== index))}
                >
                  ×
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {uploads.map((item) => (
        <div key={item.id} className="catalogue-upload">
          <span className="studio-small">{item.name}</span>
          {item.error ? (
            <p role="alert" className="studio-field__error">
              {item.error}
            </p>
          ) : (
            <ProgressBar value={item.progress} label={t('editor.uploading', { name: item.name })} />
          )}
        </div>
      ))}
      <label htmlFor={inputId} className="studio-button catalogue-upload__button">
        {t('editor.uploadImages')}
      </label>
      <input
        id={inputId}
        type="file"
        className="visually-hidden"
        accept={IMAGE_UPLOAD_MEDIA_TYPES.join(',')}
        multiple
        onChange={(event) => {
          void upload(event.target.files);
          event.target.value = '';
        }}
      />
      <p className="studio-muted studio-small">{t('editor.imagesHint')}</p>
      {error && <p className="studio-field__error">{error}</p>}
    </section>
  );
}
