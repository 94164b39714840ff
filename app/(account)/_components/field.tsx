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
