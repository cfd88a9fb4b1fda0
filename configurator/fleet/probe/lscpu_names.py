"""The names lscpu gives the fields a check reads, in the locales an archive comes from.

lscpu translates its field names (util-linux's po/*.po) unless LC_ALL=C, which probe.sh sets;
an archive captured by hand under another locale is read through these translations, each
copied from util-linux's po files (the current ones and earlier wordings): zh_CN, zh_TW, ja,
ko, de, fr, es, ru. Names are compared after NFKC folding (a full-width "：" is ":"), without
case, the colon or spaces around it (parsers._field_key). A translation shared by two fields
("型號：" is zh_TW's "Model:" and "Model name:") is read for the one whose value fits: a model
name is not a bare number.
"""

LSCPU_FIELDS = {
    "Socket(s)": ("座", "通訊端", "CPU 通訊端", "ソケット数", "CPUソケット数", "소켓", "Sockel",
                  "Socket(s)", "«Socket(s)»", "Сокетов"),
    "Core(s) per socket": ("每个座的核数", "每通訊端核心數", "ソケットあたりのコア数",
                           "소켓 당 코어 수", "Kern(e) pro Sockel", "Kern(e) pro Socket",
                           "Cœur(s) par socket", "Coeur(s) par support CPU",
                           "Núcleo(s) por «socket»", "Ядер на сокет"),
    "Thread(s) per core": ("每个核的线程数", "每核心執行緒數", "コアあたりのスレッド数",
                           "코어 당 스레드", "Thread(s) pro Kern", "Thread(s) par cœur",
                           "Thread(s) par coeur", "Hilo(s) de procesamiento por núcleo"),
    "NUMA node(s)": ("NUMA 节点", "NUMA 節點", "NUMA ノード数", "NUMAノード", "NUMA 노드",
                     "NUMA-Knoten", "Nœud(s) NUMA", "Noeud(s) NUMA", "Modo(s) NUMA"),
    "Model name": ("型号名称", "型號", "モデル名", "모델 이름", "Modellname", "Nom de modèle",
                   "Nombre del modelo", "Имя модели"),
    "Vendor ID": ("厂商 ID", "供應商識別號", "ベンダー ID", "ベンダーID", "제조자 ID",
                  "Anbieterkennung", "Identifiant constructeur", "ID du vendeur",
                  "ID de fabricante", "ID прроизводителя"),
}  # fmt: skip
