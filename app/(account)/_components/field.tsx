'use client';
import type { ReactNode } from 'react';

/** A labelled form control with its inline error (announced, linked by aria-describedby). */
export function Field(props: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: (aria: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode;
}) {
  const errId = `${props.id}-error`;
  const hintId = `${props.id}-hint`;
  const describedBy = [props.error ? errId : null, props.hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="form-field">
      <label htmlFor={props.id}>{props.label}</label>
      {props.children({ id: props.id, 'aria-invalid': Boolean(props.error), 'aria-describedby': describedBy })}
      {props.hint ? (
        <p id={hintId} className="small muted">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={errId} className="field-error" role="alert">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

/** A Field whose control is a select named like the field, of `options` (value and visible label), starting at `defaultValue`. */
export function SelectField(props: {
  id: string;
  label: string;
  error?: string;
  defaultValue: string;
  options: ReadonlyArray<{ value: string; label: string }>;
}) {
  return (
    <Field id={props.id} label={props.label} error={props.error}>
      {(a) => (
        <select {...a} name={props.id} defaultValue={props.defaultValue}>
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
