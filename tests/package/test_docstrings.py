"""The docstrings of lecture_pkg: every doctest passes, every estimator cites its sources.

* every ``>>>`` example in every module of the package runs and prints what it shows, also in
  a fresh namespace (as a student pastes it): each Examples section imports what it uses;
* numpydoc reads ``name : type`` then an indented description: no parameter, attribute or
  return value of a public function, class or method has prose in its type slot (the sign of
  ``name : description`` on one line) or neither type nor description;
* every public method and property of every class a subpackage exports has a docstring
  (autodoc leaves the undocumented ones out of the reference, ``book/api``);
* every estimator of ``test_common.ESTIMATORS`` (and :class:`~lecture_pkg.networks.MLP`)
  has a numpydoc ``References`` section whose entries name bib keys of
  ``book/references.bib`` -- in the form ``(bib key: biehl2019supervised)`` -- and an
  ``Examples`` section with at least one doctest line.
"""

import doctest
import importlib
import inspect
import pkgutil
import re
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # before any module of the package imports pyplot

import pytest  # noqa: E402
from numpydoc.docscrape import NumpyDocString  # noqa: E402

import lecture_pkg  # noqa: E402
from lecture_pkg.networks import MLP  # noqa: E402
from tests.package.test_common import ESTIMATORS  # noqa: E402

BIB = Path(__file__).resolve().parents[2] / "book" / "references.bib"
BIB_KEYS = set(re.findall(r"^@\w+\{([^,\s]+),", BIB.read_text(encoding="utf-8"), re.MULTILINE))
KEY = re.compile(r"\(bib key: ([^()\s]+)\)")
OPTIONFLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS

MODULES = sorted(m.name for m in pkgutil.walk_packages(lecture_pkg.__path__, "lecture_pkg."))
DOCUMENTED = list(ESTIMATORS) + [MLP]


def test_the_bibliography_is_read():
    assert len(BIB_KEYS) > 10 and "biehl2019supervised" in BIB_KEYS


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=OPTIONFLAGS)
    failed = []
    for test in finder.find(module, name):
        runner.run(test, out=failed.append)
    assert not failed, f"doctests of {name} failed:\n" + "".join(failed)


@pytest.mark.parametrize("name", MODULES)
def test_examples_run_in_a_fresh_namespace(name):
    """Each docstring's examples on their own, without the module's globals."""
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=OPTIONFLAGS)
    failed = []
    for test in finder.find(module, name, globs={}):
        runner.run(test, out=failed.append, clear_globs=True)
    assert not failed, (f"examples of {name} need names they do not import:\n"
                        + "".join(failed))


# ---------------------------------------------------------------- numpydoc fields

#: Words a numpydoc type may use besides class names (capitalised) and what is quoted,
#: braced or bracketed: ``array (P, N) of int``, ``{"a", "b"}, default "a"``,
#: ``seed, numpy Generator or None``, ``float in (0, 1] or None``.
TYPE_WORDS = set("""array arrays ndarray array_like of float floats int ints bool str list lists
tuple dict mapping sequence sequences callable seed numpy generator randomstate or and optional
default shape bytes matplotlib axes even at least in none inf class indices labels to such
""".split())
FIELDS = ("Parameters", "Other Parameters", "Attributes", "Returns", "Yields", "Raises",
          "Warns", "Receives")


def prose_in_type(type_: str) -> list[str]:
    """The words of a numpydoc type that are not a type's (``[]`` for a real type)."""
    s = re.sub(r"``.*?``|`[^`]*`|\{[^}]*\}|\"[^\"]*\"|'[^']*'", " ", type_)
    s = s.replace("of the same shape as", " ")
    while re.search(r"\([^()]*\)|\[[^\[\]]*\]", s):
        s = re.sub(r"\([^()]*\)|\[[^\[\]]*\]", " ", s)
    s = re.sub(r"\b\d+(\.\d*)?(e-?\d+)?\b", " ", s)
    words = [w for w in re.findall(r"[A-Za-z_]\w*", s)
             if w.lower() not in TYPE_WORDS and not w[0].isupper()]
    if re.match(r"(as|see)\b", type_.strip(), re.IGNORECASE):
        words.insert(0, type_.split()[0])
    return words


def _public_objects():
    """Every public function and class of the package (where it is defined), and the public
    methods and properties of those classes: ``{qualified name: object}``."""
    found = {}
    for name in ["lecture_pkg"] + MODULES:
        module = importlib.import_module(name)
        for attr, obj in vars(module).items():
            if attr.startswith("_") or getattr(obj, "__module__", None) != name:
                continue
            if inspect.isfunction(obj) or inspect.isclass(obj):
                found[f"{name}.{attr}"] = obj
            if inspect.isclass(obj):
                for member_name, member in vars(obj).items():
                    member = getattr(member, "__func__", member)
                    member = member.fget if isinstance(member, property) else member
                    if not member_name.startswith("_") and inspect.isfunction(member):
                        found[f"{name}.{attr}.{member_name}"] = member
    return found


PUBLIC = _public_objects()


def test_the_prose_detector_tells_a_description_from_a_type():
    for prose in ("the RBF width, in the ``convention`` given", "the bias ``b``",
                  "float, the bias ``b``", "(L,) loads asked for", "as for :class:`MinOver`.",
                  "seed, numpy Generator or None; the source of the random order"):
        assert prose_in_type(prose), prose
    for type_ in ("float, default 1e-8", "array (P, N) of +-1", "int or None, default None",
                  '{"rbf", "poly"} or callable, default "rbf"', "seed, Generator or RandomState",
                  "float in (0, 1], sequence of such floats (one per feature), or None",
                  "list of arrays (n_classes, n_values_i)", "matplotlib Axes", "KKTResiduals",
                  "array of the same shape as ``x``", "mapping of str to sequence of str"):
        assert not prose_in_type(type_), type_


def test_the_public_objects_are_found():
    assert "lecture_pkg.widgets.svm.SVMExplorer" in PUBLIC
    assert "lecture_pkg.learning.regression.BayesianLinearRegression.predict" in PUBLIC
    assert len(PUBLIC) > 300


@pytest.mark.parametrize("qualname", sorted(PUBLIC))
def test_numpydoc_fields_have_a_type_then_a_description(qualname):
    doc = PUBLIC[qualname].__doc__
    if not doc:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # numpydoc's notes on unknown sections
        parsed = NumpyDocString(inspect.cleandoc(doc))
    bad = []
    for section in FIELDS:
        for field in parsed[section]:
            has_description = bool("".join(field.desc).strip())
            if prose_in_type(field.type):
                bad.append(f"{section}: {field.name} : {field.type}  <- a description in the "
                           "type slot; write `name : type` and the description indented below")
            elif not field.type and not has_description:
                bad.append(f"{section}: {field.name}  <- neither a type nor a description")
    assert not bad, f"{qualname}:\n" + "\n".join(bad)


# ---------------------------------------------------------------- methods in the reference

SUBPACKAGES = sorted(info.name for info in pkgutil.iter_modules(lecture_pkg.__path__)
                     if info.ispkg)
#: Members every estimator inherits from scikit-learn (metadata routing), not the package's.
ROUTING = re.compile(r"set_\w+_request")


def _exported_classes():
    classes = {}
    for sub in SUBPACKAGES:
        family = importlib.import_module(f"lecture_pkg.{sub}")
        for name in getattr(family, "__all__", ()):
            obj = getattr(family, name)
            if inspect.isclass(obj) and obj.__module__.startswith("lecture_pkg"):
                classes.setdefault(f"{obj.__module__}.{obj.__qualname__}", obj)
    return classes


EXPORTED_CLASSES = _exported_classes()


def test_the_exported_classes_are_found():
    assert {"lecture_pkg.learning.regression.BayesianLinearRegression",
            "lecture_pkg.evaluation.cross_validation.NFold"} <= set(EXPORTED_CLASSES)


@pytest.mark.parametrize("qualname", sorted(EXPORTED_CLASSES))
def test_every_public_method_has_a_docstring(qualname):
    cls = EXPORTED_CLASSES[qualname]
    missing = []
    for name in dir(cls):
        if name.startswith("_") or ROUTING.fullmatch(name):
            continue
        member = inspect.getattr_static(cls, name)
        member = getattr(member, "__func__", member)          # staticmethod, classmethod
        if not (inspect.isfunction(member) or isinstance(member, property)):
            continue
        owner = next(k for k in cls.__mro__ if name in vars(k))
        if owner.__module__.startswith("lecture_pkg") and not (member.__doc__ or "").strip():
            missing.append(f"{owner.__qualname__}.{name}")
    assert not missing, (f"{qualname}: public methods without a docstring (the reference "
                         f"leaves them out): {missing}")


def _sections(doc):
    """numpydoc sections of a docstring: {title: body}."""
    lines = inspect.cleandoc(doc).splitlines()
    heads = [i for i in range(len(lines) - 1)
             if lines[i].strip() and set(lines[i + 1].strip()) == {"-"}
             and len(lines[i + 1].strip()) == len(lines[i].strip())]
    sections = {}
    for k, i in enumerate(heads):
        end = heads[k + 1] if k + 1 < len(heads) else len(lines)
        sections[lines[i].strip()] = "\n".join(lines[i + 2:end])
    return sections, [lines[i].strip() for i in heads]


@pytest.mark.parametrize("cls", DOCUMENTED, ids=lambda c: c.__name__)
def test_estimator_docstring_cites_sources_and_has_examples(cls):
    sections, order = _sections(cls.__doc__ or "")
    assert "References" in sections, f"{cls.__name__} has no References section"
    assert "Examples" in sections, f"{cls.__name__} has no Examples section"
    assert order.index("References") < order.index("Examples"), \
        "numpydoc order: References, then Examples"

    entries = re.split(r"^\.\. \[\d+\]", sections["References"], flags=re.MULTILINE)[1:]
    assert entries, f"{cls.__name__}: no '.. [n]' entries in References"
    for entry in entries:
        keys = KEY.findall(" ".join(entry.split()))
        assert keys, f"{cls.__name__}: reference without '(bib key: ...)': {entry.strip()!r}"
        unknown = set(keys) - BIB_KEYS
        assert not unknown, f"{cls.__name__}: bib keys not in {BIB.name}: {sorted(unknown)}"

    assert any(line.lstrip().startswith(">>>") for line in sections["Examples"].splitlines()), \
        f"{cls.__name__}: Examples has no '>>>' line"
