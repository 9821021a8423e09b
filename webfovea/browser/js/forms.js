// Operations on one form element (a handle found by pick.js), in the harness's isolated world. arg: {op, ...}.
(el, arg) => {
  const fire = (type) => el.dispatchEvent(new Event(type, {bubbles: true, composed: true}));
  if (arg.op === 'options') {
    return {
      element: short(el),
      disabled: !!el.disabled,
      multiple: !!el.multiple,
      selected: el.selectedIndex,
      options: Array.from(el.options).map((o) => ({
        text: (o.label || o.text || '').replace(/\s+/g, ' ').trim(), value: o.value,
        disabled: !!(o.disabled || (o.parentElement && o.parentElement.tagName === 'OPTGROUP' && o.parentElement.disabled)),
        hidden: !!o.hidden || getComputedStyle(o).display === 'none'})),
    };
  }
  if (arg.op === 'choose') {
    el.focus({preventScroll: true});
    // The prototype setters, so frameworks that shadow the properties still see the change.
    if (el.multiple) {
      el.options[arg.index].selected = true;
    } else {
      Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'selectedIndex').set.call(el, arg.index);
    }
    fire('input');
    fire('change');
    const o = el.options[arg.index];
    return {selected: !!(o && o.selected), index: el.selectedIndex, value: el.value,
      text: o ? (o.label || o.text || '').replace(/\s+/g, ' ').trim() : ''};
  }
  if (arg.op === 'info') {
    const ce = !(el.tagName === 'INPUT' || el.tagName === 'TEXTAREA');
    return {element: short(el), type: ce ? 'contenteditable' : (el.getAttribute('type') || el.tagName).toLowerCase(),
      disabled: !!el.disabled, readonly: !!el.readOnly, contenteditable: ce};
  }
  if (arg.op === 'focus') {
    el.scrollIntoView({block: 'nearest', inline: 'nearest'});
    el.focus({preventScroll: true});
    return document.activeElement === el || el.contains(document.activeElement);
  }
  if (arg.op === 'select_all') {
    if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') {
      el.select();
    } else {
      const r = document.createRange();
      r.selectNodeContents(el);
      const s = getSelection();
      s.removeAllRanges();
      s.addRange(r);
    }
    return true;
  }
  if (arg.op === 'set_value') {
    const proto = el.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    el.focus({preventScroll: true});
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, arg.value);
    fire('input');
    fire('change');
    return el.value;
  }
  if (arg.op === 'center') {
    const r = el.getBoundingClientRect();
    return {x: r.left + r.width / 2, y: r.top + r.height / 2};
  }
  if (arg.op === 'value') {
    if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') return el.value;
    return (el.innerText || '').replace(/\n$/, '');
  }
  return null;
}
